import Foundation
import ObservableDefaults
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
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("od-main-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = PropertyListDefaults(fileURL: folder.appendingPathComponent("main.plist"))
    let settings = MainActorSettings(userDefaults: store)
    settings.name = "Main"
    settings.isEditing = true
    try store.flush()
    #expect(PropertyListDefaults(fileURL: store.fileURL).string(forKey: "name") == "Main")
    #expect(AnySettings(settings).properties.map(\.name) == ["name", "isEditing"])
  }

  @Test func explicitMainActorClassPersists() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("od-main-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = PropertyListDefaults(fileURL: folder.appendingPathComponent("main.plist"))
    let settings = ExplicitMainActorSettings(userDefaults: store)
    settings.volume = 0.25
    #expect(store.double(forKey: "volume") == 0.25)
  }
}
