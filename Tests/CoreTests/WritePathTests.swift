import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// The parts of the write path the burst benchmark measures, counted and compared exactly: the
/// pacing of flushes and notification posts, the log of pending changes, one-key changes, and the
/// comparison of stored values without casts.
@Suite struct WritePathTests {
  @Test func pacingRunsAtOnceAfterAQuietIntervalAndOtherwiseWaitsForIt() {
    var pacing = JobPacing(interval: 1_000_000)
    #expect(pacing.delay(at: 5_000_000) == 0)
    pacing.noteStart(at: 5_000_000)
    #expect(pacing.delay(at: 5_000_000) == 1_000_000)
    #expect(pacing.delay(at: 5_250_000) == 750_000)
    #expect(pacing.delay(at: 5_999_999) == 1)
    #expect(pacing.delay(at: 6_000_000) == 0)
    #expect(pacing.delay(at: 9_000_000) == 0)
  }

  @Test func pendingChangesKeepTheLatestChangeOfEachKey() {
    var pending = PendingChanges()
    #expect(pending.isEmpty)
    pending.append(.set(1), forKey: "a", replacing: nil)
    pending.append(.set("x"), forKey: "b", replacing: "file")
    pending.append(.set(2), forKey: "a", replacing: 1)
    pending.append(.remove, forKey: "b", replacing: "x")
    #expect(pending.keys == ["a", "b"])
    let taken = pending.take()
    #expect(pending.isEmpty)
    let latest = taken.latest
    #expect(latest.count == 2)
    #expect(latest["a"].map(description) == "set 2")
    #expect(latest["b"].map(description) == "remove")
  }

  @Test func consecutiveWritesOfOneKeyAreOnePendingEntry() {
    var pending = PendingChanges()
    for value in 1...1_000 { pending.append(.set(value), forKey: "counter", replacing: nil) }
    #expect(pending.entryCount == 1)
    #expect(pending.latest.mapValues(description) == ["counter": "set 1000"])
    // Another key in between keeps the order: each run of one key is one entry.
    pending.append(.set("x"), forKey: "name", replacing: nil)
    pending.append(.remove, forKey: "counter", replacing: nil)
    pending.append(.set(7), forKey: "counter", replacing: nil)
    #expect(pending.entryCount == 3)
    #expect(pending.latest.mapValues(description) == ["counter": "set 7", "name": "set x"])
    // A key equal only by Unicode normalization is another key.
    pending.append(.set(1), forKey: "\u{E9}", replacing: nil)
    pending.append(.set(2), forKey: "e\u{301}", replacing: nil)
    #expect(pending.entryCount == 5)
    #expect(pending.latest.count == 4)
    // A run keeps the value its first write replaced: the key's value in the file.
    var run = PendingChanges()
    run.append(.set(1), forKey: "k", replacing: "in the file")
    run.append(.set(2), forKey: "k", replacing: 1)
    #expect(run.entryCount == 1 && run.fileValues["k"] as? String == "in the file")
  }

  @Test func aFailedFlushsChangesGoBackBeforeTheChangesMadeSince() {
    var pending = PendingChanges()
    pending.append(.set("during the flush"), forKey: "a", replacing: "taken by the flush")
    pending.restore(
      ["a": .set("taken by the flush"), "b": .set(true)], fileValues: ["a": "in the file"])
    let latest = pending.latest
    #expect(latest["a"].map(description) == "set during the flush")
    #expect(latest["b"].map(description) == "set true")
    // The file's values are those the restored changes replaced.
    let fileValues = pending.fileValues
    #expect(fileValues.count == 1)
    #expect(fileValues["a"] as? String == "in the file")
  }

  /// The suite keeps no dictionary of the file's values: memory's values less the pending
  /// writes are the file's (issue 42, item 3), and a re-read notes another writer's value of a
  /// pending key.
  @Test func memoryLessThePendingWritesIsTheFile() {
    var pending = PendingChanges()
    pending.append(.set(2), forKey: "a", replacing: 1)
    pending.append(.set(3), forKey: "a", replacing: 2)
    pending.append(.set("new"), forKey: "b", replacing: nil)
    pending.append(.remove, forKey: "c", replacing: "gone")
    var memory: [PropertyListKey: Any] = ["a": 3, "b": "new", "d": "kept"]
    pending.revert(&memory)
    #expect(memory.count == 3)
    #expect(memory["a"] as? Int == 1)
    #expect(memory["b"] == nil)
    #expect(memory["c"] as? String == "gone")
    #expect(memory["d"] as? String == "kept")
    pending.noteFileValues(["a": 7], forKeys: ["a", "c"])
    let fileValues = pending.fileValues
    #expect(fileValues.count == 1)
    #expect(fileValues["a"] as? Int == 7)
    #expect(pending.latest["a"].map(description) == "set 3")
  }

  @Test func aOneKeyChangeEqualsTheSameChangeWithASet() {
    let one = DefaultsChange(key: "volume", origin: .thisProcess)
    #expect(one == DefaultsChange(keys: ["volume"], origin: .thisProcess))
    #expect(one != DefaultsChange(keys: ["volume"], origin: .otherProcess))
    #expect(one != DefaultsChange(keys: ["volume", "name"], origin: .thisProcess))
    #expect(one.keys == ["volume"])
    #expect(one.contains("volume"))
    #expect(!one.contains("name"))
    let several = DefaultsChange(keys: ["volume", "name"], origin: .otherProcess)
    #expect(several.contains("name"))
    #expect(!several.contains("theme"))
  }

  @Test func scalarsCompareByValueAndByType() {
    let date = Date(timeIntervalSinceReferenceDate: 12.5)
    let pairs: [(Any, Any, Bool)] = [
      // By their Unicode scalars, as a file holds them (Swift's `==` says equal).
      ("\u{E9}", "e\u{301}", false), ("\u{E9}", "\u{E9}", true), ("a", "b", false),
      (7, 7, true), (7, 8, false), (7, 7.0, false), (1, true, false),
      (true, true, true), (true, false, false),
      (Double.nan, Double.nan, true), (0.5, 0.25, false),
      (date, Date(timeIntervalSinceReferenceDate: 12.5), true), (date, Date.distantPast, false),
      (Data([1, 2]), Data([1, 2]), true), (Data([1, 2]), Data([1]), false),
      (UInt64.max, UInt64.max, true), (UInt64.max, UInt64.max - 1, false),
      (Int64(3), 3, true), (Float(0.5), 0.5, true),
    ]
    for (lhs, rhs, equal) in pairs {
      #expect(propertyListValuesEqual(lhs, rhs) == equal, "\(lhs) and \(rhs)")
      #expect(propertyListValuesEqual(rhs, lhs) == equal, "\(rhs) and \(lhs)")
    }
  }

  /// A typed value compares with a stored value as the general comparison does, for every pair
  /// of a typed value and a stored value of the same or another type.
  @Test func aScalarComparesWithAStoredValueAsTwoValuesDo() {
    let date = Date(timeIntervalSinceReferenceDate: 12.5)
    let scalars: [PropertyListScalar] = [
      .string(""), .string("\u{E9}"), .string("e\u{301}"), .string("7"), .integer(0),
      .integer(7), .integer(-1), .integer(.max), .boolean(true), .boolean(false), .real(0),
      .real(-0.0), .real(7), .real(.nan), .real(.infinity), .date(date), .date(.distantPast),
      .data(Data()), .data(Data([1, 2])),
    ]
    let others: [Any] = [UInt64.max, [Any]([7]), ["a": 7] as [String: Any]]
    let stored = scalars.map(\.storedValue) + others
    var equalPairs = 0
    for scalar in scalars {
      for value in stored {
        let equal = propertyListValuesEqual(value, scalar.storedValue)
        #expect(scalar.isEqual(toStored: value) == equal, "\(scalar) and \(value)")
        equalPairs += equal ? 1 : 0
      }
    }
    // Each scalar equals itself, and 0.0 and -0.0 equal each other.
    #expect(equalPairs == scalars.count + 2)
  }

  /// A setter's typed comparison (`PropertyListScalar.storeSame`, which takes the place of the
  /// codec's closure) agrees with the suite's for every pair of values of one type, and says
  /// nothing of a value of another type.
  @Test func aSettersComparisonAgreesWithTheSuites() {
    func check<Value>(_ values: [Value]) {
      for lhs in values {
        for rhs in values {
          let stored = PropertyListScalar(rhs)!.storedValue
          #expect(
            PropertyListScalar.storeSame(lhs, rhs)
              == PropertyListScalar(lhs)!.isEqual(toStored: stored), "\(lhs) and \(rhs)")
        }
      }
    }
    check(["", "\u{E9}", "e\u{301}", "7"])
    check([0, 7, -1, Int.max])
    check([true, false])
    check([0, -0.0, 7, .nan, .infinity])
    check([Date(timeIntervalSinceReferenceDate: 12.5), .distantPast])
    check([Data(), Data([1, 2])])
    #expect(PropertyListScalar.storeSame("\u{E9}", "e\u{301}") == false)
    #expect(PropertyListScalar.storeSame(Double.nan, .nan) == true)
    #expect(PropertyListScalar.storeSame([1], [1]) == nil)
  }

  /// A typed write stores and reports as the write of the same value as `Any`, without
  /// comparing two `Any` values: a new value is a change (two forms of "é" are two values), an
  /// equal one is not (NaN included), and the file ends with the last value.
  @Test func aScalarWriteComparesNoAnyValues() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("scalars.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      let storage = defaults.storage
      let told = Mutex<[String]>([])
      let observation = defaults.observe { change in told.withLock { $0 += change.keys.sorted() } }
      defer { observation.cancel() }
      for round in 1...1_000 { try defaults.write(scalar: .integer(round), forKey: "counter") }
      try defaults.write(scalar: .string("\u{E9}"), forKey: "name")
      try defaults.write(scalar: .string("e\u{301}"), forKey: "name")
      try defaults.write(scalar: .string("e\u{301}"), forKey: "name")
      try defaults.write(scalar: .real(.nan), forKey: "volume")
      try defaults.write(scalar: .real(.nan), forKey: "volume")
      #expect(storage.untypedWriteComparisons == 0)
      #expect(
        told.withLock { $0 } == Array(repeating: "counter", count: 1_000) + [
          "name", "name", "volume",
        ])
      // The same writes as `Any` compare every value they replace.
      for round in 1...10 { try defaults.write(round, forKey: "counter") }
      #expect(storage.untypedWriteComparisons == 10)
      try defaults.flush()
      let file = try foundationRead(url)
      #expect(file["counter"] as? Int == 10)
      #expect(file["name"] as? String == "e\u{301}")
      #expect((file["volume"] as? Double)?.isNaN == true)
    }
  }

  @Test func aBurstOfWritesIsFlushedAtMostOncePerMillisecond() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("burst.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      let start = DispatchTime.now().uptimeNanoseconds
      for value in 1...5_000 { defaults.set(value, forKey: "counter") }
      try defaults.flush()
      let elapsed = DispatchTime.now().uptimeNanoseconds - start
      // The first write is flushed at once, the next flushes start a millisecond apart, and
      // `flush()` writes what is left.
      let writes = PropertyListCounters.counts(for: url).writes
      #expect(writes >= 1)
      #expect(writes <= Int(elapsed / 1_000_000) + 2, "\(writes) writes in \(elapsed) ns")
      #expect(try foundationRead(url)["counter"] as? Int == 5_000)
    }
  }

  /// A key is hashed by its first two writes only (the first adds it, the second finds it and
  /// remembers where it is): the later writes of it, and of up to four keys written in turn,
  /// replace the value in its place. Adding or removing a key forgets every place, and a copy of
  /// the values taken before a write keeps its values.
  @Test func writesOfAKeyWrittenBeforeHashNoKey() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("slots.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      let storage = defaults.storage
      for value in 1...1_000 { try defaults.write(value, forKey: "counter") }
      #expect(storage.hashedWriteLookups == 2)
      // A key longer than a small string: one string object on every write. Each new key
      // forgets the places, so the second round finds every key once more.
      let keys = ["counter", "a key longer than fifteen bytes", "name", "volume"]
      for round in 1...250 {
        for key in keys { try defaults.write("\(key) \(round)", forKey: key) }
      }
      #expect(storage.hashedWriteLookups == 2 + 3 + 4)
      let copy = storage.allValues()
      try defaults.write("after the copy", forKey: "name")
      #expect(copy["name"] as? String == "name 250")
      #expect(storage.value(forKey: "name") as? String == "after the copy")
      #expect(storage.hashedWriteLookups == 9)
      // Removing a key forgets every place: the next write of a key finds it again.
      try defaults.write(nil, forKey: "volume")
      for value in 1...10 { try defaults.write(value, forKey: "counter") }
      #expect(storage.hashedWriteLookups == 9 + 1 + 1)
      try defaults.flush()
      let file = try foundationRead(url)
      #expect(file["counter"] as? Int == 10)
      #expect(file[keys[1]] as? String == "\(keys[1]) 250")
      #expect(file["name"] as? String == "after the copy")
      #expect(file["volume"] == nil)
    }
  }

  /// A change is reported to the handlers that read it, made once for all of them, and not made
  /// when only handlers that do not read it (the instances' notification posters) are told: a
  /// property write then builds no report (its writer, a task-local value, is not read).
  @Test func aChangeReportIsMadeOnlyWhenAnObserverReadsIt() {
    let told = Mutex(0)
    var observers = ObserverList<DefaultsChange>()
    observers.addLazy(id: 1) { _ in told.withLock { $0 += 1 } }
    observers.add(id: 2) { _ in told.withLock { $0 += 1 } }
    var reports = 0
    observers.notify(excluding: 2) {
      reports += 1
      return DefaultsChange(key: "counter", origin: .thisProcess)
    }
    #expect(reports == 0 && told.withLock { $0 } == 1)
    observers.add(id: 3) { change in told.withLock { $0 += change.contains("counter") ? 1 : 0 } }
    observers.notify(excluding: nil) {
      reports += 1
      return DefaultsChange(key: "counter", origin: .thisProcess)
    }
    #expect(reports == 1 && told.withLock { $0 } == 4)
  }

  private func description(_ change: PropertyListChange) -> String {
    switch change {
    case .set(let value): "set \(value)"
    case .remove: "remove"
    }
  }
}
