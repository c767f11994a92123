import Foundation
import ObservableDefaultsCore
import Testing

/// The checks of a backend alone: records, timestamps, subscriptions and accounts.
extension Devices {
  func emptyContainerLoadsNoRecords() async throws {
    let records = try device().load().records
    #expect(records.isEmpty)
  }

  func savedRecordsLoadOnAnotherDevice() async throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    let values: [String: Any] = [
      "s": "text", "i": 42, "d": 2.5, "b": true, "t": date, "data": Data([0, 1, 2]),
      "a": [1, "two"], "m": ["k": [true]],
    ]
    try device().save(.init(exactKeys: values.mapValues { record($0, at: 1) }))
    let loaded = try device().load().records
    #expect(Set(loaded.keys) == Set(values.keys.map { PropertyListKey($0) }))
    for (key, value) in values {
      #expect(propertyListValuesEqual(loaded[key]?.value, value), "\(key)")
      #expect(loaded[key]?.timestamp == record(nil, at: 1).timestamp)
    }
  }

  func eachKeyKeepsTheRecordWithTheLaterTimestamp() async throws {
    let backend = try device()
    try backend.save(["a": record("a@5", at: 5), "b": record("b@5", at: 5)])
    try backend.save(["a": record("a@3", at: 3), "b": record("b@7", at: 7)])
    try backend.save(["a": record(nil, at: 4)])
    let loaded = try device().load().records
    #expect(loaded["a"]?.value as? String == "a@5")
    #expect(loaded["b"]?.value as? String == "b@7")
    try backend.save(["a": record(nil, at: 6)])
    let removed = try #require(try device().load().records["a"])
    #expect(removed.value == nil)
    #expect(removed.timestamp.time == 6)
  }

  func savingNothingNewerChangesNothing() async throws {
    let backend = try device()
    try backend.save(["k": record("v", at: 5)])
    let before = try backend.load().cursor
    try backend.save(["k": record("v", at: 5)])
    try backend.save(["k": record("old", at: 4)])
    #expect(try backend.load().cursor == before)
  }

  func subscriberGetsExactlyTheKeysSavedByAnotherDevice() async throws {
    let mine = try device()
    let theirs = try device()
    try theirs.save(["before": record(1, at: 1)])
    let log = CloudEventLog()
    let subscription = mine.subscribe(from: try mine.load().cursor, log.handler)
    try theirs.save(["x": record(2, at: 2), "y": record(3, at: 2)])
    #expect(await poll { !log.changedKeys.isEmpty })
    // Changes arrive in order: once the later save's keys are there, nothing more of the first
    // save can come.
    try theirs.save(["z": record(4, at: 3)])
    #expect(await poll { log.changedKeys.count >= 2 })
    #expect(log.changedKeys == [["x", "y"], ["z"]])
    withExtendedLifetime(subscription) {}
  }

  func subscribingFromAResumePointDeliversOnlyLaterSaves() async throws {
    let backend = try device()
    try backend.save(["old": record(1, at: 1)])
    let cursor = try backend.load().cursor
    try backend.save(["new": record(2, at: 2)])
    let fromCursor = CloudEventLog()
    let fromStart = CloudEventLog()
    let (resuming, starting) = try (device(), device())
    let first = resuming.subscribe(from: cursor, fromCursor.handler)
    let second = starting.subscribe(from: nil, fromStart.handler)
    #expect(await poll { !fromCursor.changedKeys.isEmpty && !fromStart.changedKeys.isEmpty })
    #expect(fromCursor.changedKeys == [["new"]])
    #expect(fromStart.changedKeys == [["old", "new"]])
    first.cancel()
    try backend.save(["later": record(3, at: 3)])
    #expect(await poll { fromStart.changedKeys.count == 2 })
    #expect(fromCursor.changedKeys == [["new"]])
    withExtendedLifetime((second, resuming, starting)) {}
  }

  func switchingAccountDeliversTheNewAccountsRecords() async throws {
    try device(account: "bob").save(["bob's": record("b", at: 1)])
    let backend = try device(account: "alice")
    try backend.save(["alice's": record("a", at: 1)])
    let log = CloudEventLog()
    let subscription = backend.subscribe(from: try backend.load().cursor, log.handler)
    try backend.switchAccount(to: "bob")
    #expect(await poll { !log.all.isEmpty })
    guard case .accountChanged(let account, let batch) = try #require(log.all.last) else {
      Issue.record("expected an account change, got \(log.all)")
      return
    }
    #expect(account == "bob")
    #expect(Set(batch.records.keys) == ["bob's"])
    try backend.save(["shared": record("s", at: 2)])
    #expect(Set(try device(account: "bob").load().records.keys) == ["bob's", "shared"])
    #expect(Set(try device(account: "alice").load().records.keys) == ["alice's"])
    withExtendedLifetime(subscription) {}
  }
}
