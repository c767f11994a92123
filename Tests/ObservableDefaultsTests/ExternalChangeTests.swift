import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// Changes written to the file by hand or by other processes.
@Suite(.serialized) struct ExternalChangeTests {
  @Test func observersNeverSeeAHalfAppliedChange() throws {
    let suite = TemporarySuite()
    nonisolated(unsafe) let settings = Settings(userDefaults: suite.store())
    let seen = SeenValues()
    withObservationTracking {
      _ = settings.name
    } onChange: {
      seen.record(settings.name, settings.age)
    }
    _ = try PropertyListFile(url: suite.fileURL).apply(["name": .set("Hand"), "age": .set(77)])
    #expect(pollBlocking { settings.name == "Hand" && settings.age == 77 })
    // Called before the change (Observation's willSet): it sees all the old values, never a mix.
    #expect(seen.values == [SeenValues.Pair(name: "Fatbobman", age: 20)])
  }

  @Test func handEditNotifiesOnlyTheChangedProperty() throws {
    let suite = TemporarySuite()
    let settings = Settings(userDefaults: suite.store())
    settings.name = "Same"
    try suite.store().flush()
    let name = ChangeCounter(settings, \.name)
    let age = ChangeCounter(settings, \.age)
    _ = try PropertyListFile(url: suite.fileURL).apply(["name": .set("Same"), "age": .set(5)])
    #expect(pollBlocking { settings.age == 5 })
    #expect(age.count == 1)
    #expect(name.count == 0)
  }

  @Test func limitToInstanceFalseFollowsOtherProcesses() throws {
    let suite = TemporarySuite()
    let settings = SharedGroupSettings(userDefaults: suite.store())
    let age = ChangeCounter(settings, \.age)
    let name = ChangeCounter(settings, \.name)
    #expect(try runProbe("set", suite.fileURL.path, "age", "64") == 0)
    #expect(pollBlocking { settings.age == 64 })
    #expect(age.count == 1)
    #expect(name.count == 0)
  }
}

/// Values an observer saw, recorded from whichever thread it ran on.
final class SeenValues: @unchecked Sendable {
  struct Pair: Equatable {
    let name: String
    let age: Int
  }

  private let lock = NSLock()
  private var pairs: [Pair] = []

  func record(_ name: String, _ age: Int) {
    lock.withLock { pairs.append(Pair(name: name, age: age)) }
  }
  var values: [Pair] { lock.withLock { pairs } }
}
