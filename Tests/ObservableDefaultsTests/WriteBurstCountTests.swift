import Foundation
import ObservableDefaults
import Testing

/// The counts behind the benchmark's write-burst row: each write that changes the value is one
/// store change and one Observation notification; an unchanged value is neither; the file ends
/// with the last value.
@Suite struct WriteBurstCountTests {
  @Test func aBurstNotifiesOncePerChangedWriteAndStoresTheLast() throws {
    let suite = TemporarySuite()
    let settings = Settings(userDefaults: suite.store())
    let age = ChangeCounter(settings, \.age)
    let changes = StoreChangeLog()
    let observation = suite.store().observe { changes.record($0) }
    defer { observation.cancel() }

    let writes = 1_000
    for value in 1...writes { settings.age = value }
    settings.age = writes

    #expect(age.count == writes)
    #expect(changes.count == writes)
    #expect(changes.keys == ["age"])
    try suite.store().flush()
    #expect(try suite.fileValues()["age"] as? Int == writes)
  }
}

/// Collects the changes a store reports.
private final class StoreChangeLog: @unchecked Sendable {
  private let lock = NSLock()
  private var changes: [DefaultsChange] = []

  func record(_ change: DefaultsChange) { lock.withLock { changes.append(change) } }

  var count: Int { lock.withLock { changes.count } }
  /// Every key named by any change.
  var keys: Set<String> { lock.withLock { changes.reduce(into: []) { $0.formUnion($1.keys) } } }
}
