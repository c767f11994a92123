import Foundation
import ObservableDefaultsCore
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// A device away while other devices rewrote keys past the bucket's history (one revision per
/// key): resuming from its old cursor it gets each key's latest record, once.
@Suite struct NATSHistoryTests {
  func record(_ value: String, at time: Int64) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: "w"))
  }

  @Test func aDeviceAwayPastTheHistoryGetsEachKeysLatestRecordOnce() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let writer = try NATSCloudBackend(configuration: configuration)
    try writer.save(["k": record("v0", at: 1)])
    // The away device last saw revision 1, then ended.
    let cursor = try NATSCloudBackend(configuration: configuration).load().cursor
    for time in 2...6 { try writer.save(["k": record("v\(time - 1)", at: Int64(time))]) }
    try writer.save(["other": record("o", at: 7)])

    let delivered = Mutex<[String: [String]]>([:])
    let returning = try NATSCloudBackend(configuration: configuration)
    let subscription = returning.subscribe(from: cursor) { event in
      guard case .changed(let batch) = event else { return }
      delivered.withLock { seen in
        for (key, record) in batch.records {
          seen[key.string, default: []].append("\(record.value!)")
        }
      }
    }
    defer { subscription.cancel() }
    #expect(await poll { delivered.withLock { $0["other"] } != nil })
    #expect(delivered.withLock { $0 } == ["k": ["v5"], "other": ["o"]])
    #expect(try returning.load().cursor.rawValue == writer.load().cursor.rawValue)
  }
}
