import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// In this module every declaration is main-actor isolated by default.
@ObservableDefaults(defaultIsolationIsMainActor: true)
final class MainActorSettings {
  var name: String = "Fatbobman"
  @ObservableOnly var isEditing = false
}

/// An explicitly `@MainActor` class works the same way.
@MainActor
@ObservableDefaults
final class ExplicitMainActorSettings {
  var volume: Double = 0.5
}

@Suite struct MainActorSettingsTests {
  @Test func defaultIsolationClassPersistsAndDescribesItself() throws {
    let folder = try TemporaryFolder(prefix: "od-main")
    defer { folder.remove() }
    let store = folder.suite("main")
    let settings = MainActorSettings(userDefaults: store)
    settings.name = "Main"
    settings.isEditing = true
    try store.flush()
    #expect(PropertyListDefaults(fileURL: store.fileURL).string(forKey: "name") == "Main")
    #expect(AnySettings(settings).properties.map(\.name) == ["name", "isEditing"])
  }

  @Test func explicitMainActorClassPersists() throws {
    let folder = try TemporaryFolder(prefix: "od-main")
    defer { folder.remove() }
    let store = folder.suite("main")
    let settings = ExplicitMainActorSettings(userDefaults: store)
    settings.volume = 0.25
    #expect(store.double(forKey: "volume") == 0.25)
  }
}

/// Changes from other threads reach main-actor objects through `MainActorDelivery.schedule`
/// (serialized: one test replaces the scheduler, and every delivery goes through it).
@Suite(.serialized) struct MainActorDeliveryTests {
  @Test func aChangeFromAnotherThreadIsScheduledOnTheMainThread() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = folder.file("main.plist")
    let settings = MainActorSettings(userDefaults: PropertyListDefaults(fileURL: file))
    let scheduled = ScheduledCount()
    let standard = MainActorDelivery.schedule
    MainActorDelivery.schedule = { work in
      scheduled.increment()
      DispatchQueue.main.async(execute: work)
    }
    defer { MainActorDelivery.schedule = standard }
    await Task.detached { PropertyListDefaults(fileURL: file).set("From a thread", forKey: "name") }
      .value
    #expect(await poll { settings.name == "From a thread" })
    #expect(scheduled.count == 1)
  }

  /// A `UserDefaults.didChangeNotification` posted for a main-actor object's Foundation store
  /// reaches it on the main actor and notifies the changed property once.
  @Test func aPostedNotificationNotifiesTheChangedPropertyOnce() async throws {
    // An absolute suite name is the file's path without `.plist`: the file stays in the test's
    // folder, not in the user's ~/.config. Foundation writes what it holds back before the
    // folder goes.
    let folder = try TemporaryFolder(prefix: "od-main")
    let defaults = UserDefaults(suiteName: folder.file("foundation").path)!
    defer {
      defaults.synchronize()
      folder.remove()
    }
    let settings = MainActorSettings(userDefaults: defaults)
    let changes = ScheduledCount()
    withObservationTracking {
      _ = settings.name
    } onChange: {
      changes.increment()
    }
    defaults.set("External", forKey: "name")
    NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    #expect(await poll { changes.count == 1 })
    #expect(settings.name == "External")
  }
}

/// Counts calls from any thread.
nonisolated final class ScheduledCount: @unchecked Sendable {
  private let lock = NSLock()
  private var calls = 0
  func increment() { lock.withLock { calls += 1 } }
  var count: Int { lock.withLock { calls } }
}
