import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// The contract of `CloudBackend`, checked against every backend.
@Suite struct CloudBackendConformanceTests {
  func record(_ value: Any?, at time: Int64, by device: String = "d") -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: device))
  }

  /// Collects a subscriber's events.
  final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [CloudBackendEvent] = []
    var handler: @Sendable (CloudBackendEvent) -> Void {
      { [self] event in lock.withLock { events.append(event) } }
    }
    var all: [CloudBackendEvent] { lock.withLock { events } }

    /// The keys of each `.changed` event, in order.
    var changedKeys: [Set<String>] {
      all.compactMap { event in
        if case .changed(let batch) = event { return Set(batch.records.keys) }
        return nil
      }
    }
  }

  @Test(arguments: CloudBackendKind.allCases)
  func emptyContainerLoadsNoRecords(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      let records = try container.device().load().records
      #expect(records.isEmpty)
    }
  }

  @Test(arguments: CloudBackendKind.allCases)
  func savedRecordsLoadOnAnotherDevice(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      let date = Date(timeIntervalSince1970: 1_700_000_000.25)
      let values: [String: Any] = [
        "s": "text", "i": 42, "d": 2.5, "b": true, "t": date, "data": Data([0, 1, 2]),
        "a": [1, "two"], "m": ["k": [true]],
      ]
      try container.device().save(values.mapValues { record($0, at: 1) })
      let loaded = try container.device().load().records
      #expect(Set(loaded.keys) == Set(values.keys))
      for (key, value) in values {
        #expect(propertyListValuesEqual(loaded[key]?.value, value), "\(key)")
        #expect(loaded[key]?.timestamp == record(nil, at: 1).timestamp)
      }
    }
  }

  @Test(arguments: CloudBackendKind.allCases)
  func eachKeyKeepsTheRecordWithTheLaterTimestamp(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      let backend = try container.device()
      try backend.save(["a": record("a@5", at: 5), "b": record("b@5", at: 5)])
      try backend.save(["a": record("a@3", at: 3), "b": record("b@7", at: 7)])
      try backend.save(["a": record(nil, at: 4)])
      let loaded = try container.device().load().records
      #expect(loaded["a"]?.value as? String == "a@5")
      #expect(loaded["b"]?.value as? String == "b@7")
      try backend.save(["a": record(nil, at: 6)])
      let removed = try #require(try container.device().load().records["a"])
      #expect(removed.value == nil)
      #expect(removed.timestamp.time == 6)
    }
  }

  @Test(arguments: CloudBackendKind.allCases)
  func savingNothingNewerChangesNothing(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      let backend = try container.device()
      try backend.save(["k": record("v", at: 5)])
      let before = try backend.load().cursor
      try backend.save(["k": record("v", at: 5)])
      try backend.save(["k": record("old", at: 4)])
      #expect(try backend.load().cursor == before)
      if kind == .embedded, let embedded = backend as? EmbeddedCloudBackend {
        // A modification date in the past: any rewrite, even within the same clock tick, moves it.
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes(
          [.modificationDate: past], ofItemAtPath: embedded.fileURL.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: embedded.fileURL.path)
        try backend.save(["k": record("v", at: 5)])
        let after = try FileManager.default.attributesOfItem(atPath: embedded.fileURL.path)
        #expect(after[.modificationDate] as? Date == attributes[.modificationDate] as? Date)
        #expect(after[.systemFileNumber] as? Int == attributes[.systemFileNumber] as? Int)
      }
    }
  }

  @Test(arguments: CloudBackendKind.allCases)
  func subscriberGetsExactlyTheKeysSavedByAnotherDevice(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      let mine = try container.device()
      let theirs = try container.device()
      try theirs.save(["before": record(1, at: 1)])
      let log = EventLog()
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
  }

  @Test(arguments: CloudBackendKind.allCases)
  func subscribingFromAResumePointDeliversOnlyLaterSaves(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      let backend = try container.device()
      try backend.save(["old": record(1, at: 1)])
      let cursor = try backend.load().cursor
      try backend.save(["new": record(2, at: 2)])
      let fromCursor = EventLog()
      let fromStart = EventLog()
      let (resuming, starting) = try (container.device(), container.device())
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
  }

  @Test(arguments: CloudBackendKind.allCases)
  func switchingAccountDeliversTheNewAccountsRecords(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      try container.device(account: "bob").save(["bob's": record("b", at: 1)])
      let backend = try container.device(account: "alice")
      try backend.save(["alice's": record("a", at: 1)])
      let log = EventLog()
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
      #expect(Set(try container.device(account: "bob").load().records.keys) == ["bob's", "shared"])
      #expect(Set(try container.device(account: "alice").load().records.keys) == ["alice's"])
      withExtendedLifetime(subscription) {}
    }
  }
}
