import Foundation
import ObservableDefaults
import Testing

/// The settings followed by code without a UI, as the README shows them: on the main actor.
@MainActor
@ObservableDefaults
final class FollowedSettings {
  var name: String = "Fatbobman"
  var age: Int = 20
}

/// The same settings off the main actor: changes from other processes are applied on the thread
/// that sees them, not through `MainActorDelivery` (whose scheduler another suite replaces).
@ObservableDefaults
final class BackgroundFollowedSettings {
  var name: String = "Fatbobman"
  var age: Int = 20
}

/// The values an `Observations` sequence produced, in order.
@MainActor
final class ObservedValues {
  private(set) var values: [String] = []
  func append(_ value: String) { values.append(value) }
}

/// `for await name in Observations({ settings.name })` (Swift 6.2's Observation) gives one
/// element per change of the property, whoever made it.
@Suite(.serialized) struct ObservationsSequenceTests {
  @MainActor @Test func oneElementPerOwnChangeOfAMainActorObject() async throws {
    let suite = TemporarySuite()
    let settings = FollowedSettings(userDefaults: suite.store())
    let observed = ObservedValues()
    let following = Task { @MainActor in
      for await name in Observations({ settings.name }) { observed.append(name) }
    }
    defer { following.cancel() }
    #expect(await eventuallyAwaiting(within: 5) { observed.values == ["Fatbobman"] })
    for name in ["First", "Second", "Third"] {
      settings.name = name
      settings.age += 1
      let count = observed.values.count + 1
      #expect(await eventuallyAwaiting(within: 5) { observed.values.count == count })
    }
    #expect(observed.values == ["Fatbobman", "First", "Second", "Third"])
  }

  @MainActor @Test func oneElementPerChangeFromThisObjectAnotherProcessAndAFileEdit() async throws {
    let suite = TemporarySuite()
    let store = suite.store()
    nonisolated(unsafe) let settings = BackgroundFollowedSettings(userDefaults: store)
    let observed = ObservedValues()
    let following = Task { @MainActor in
      for await name in Observations({ settings.name }) { observed.append(name) }
    }
    defer { following.cancel() }
    #expect(await eventuallyAwaiting(within: 5) { observed.values == ["Fatbobman"] })

    settings.name = "Own write"
    settings.age = 30
    #expect(await eventuallyAwaiting(within: 5) { observed.values.count == 2 })
    try store.flush()

    #expect(try runProbe("set", suite.fileURL.path, "name", "Other process") == 0)
    #expect(await eventuallyAwaiting(within: 5) { observed.values.count == 3 })

    var values = try suite.fileValues()
    values["name"] = "Hand edit"
    let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
    try data.write(to: suite.fileURL, options: .atomic)
    #expect(await eventuallyAwaiting(within: 5) { observed.values.count == 4 })

    // A last change of our own: any repeated element would come before it.
    settings.name = "Last"
    #expect(await eventuallyAwaiting(within: 5) { observed.values.count == 5 })
    #expect(observed.values == ["Fatbobman", "Own write", "Other process", "Hand edit", "Last"])
    #expect(settings.age == 30)
  }
}
