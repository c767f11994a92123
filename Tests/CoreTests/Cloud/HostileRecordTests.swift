import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Records come from the network: any device of an account, a fake member, a bug. A record that
/// would crash, stall or stop a device is refused, and the rest of the account syncs.
@Suite struct HostileRecordTests {
  let timestamp = HostileCloudRecords.timestamp
  let setRecord = HostileCloudRecords.setRecord
  let expandingRecord = HostileCloudRecords.expandingRecord

  /// A record of `timestamp` whose value is the binary property list `objects`.
  func record(value objects: [[UInt8]]) -> Data {
    HostileCloudRecords.record(value: objects)
  }

  func refusal(_ bytes: Data) -> String? {
    do {
      _ = try CloudRecordCodec.decode(bytes)
      return nil
    } catch {
      return error.reason
    }
  }

  @Test func aRecordHoldingASetIsRefusedNamingTheSet() {
    #expect(setRecord.count == 74)
    #expect(
      refusal(setRecord)
        == "the record's value was refused: binary property list: object 1 at byte 10 is a set, "
        + "which preferences cannot hold")
  }

  @Test func aSharedReferenceExpansionIsRefusedBeforeItIsExpanded() throws {
    #expect(expandingRecord.count == 231)
    let reason = try #require(refusal(expandingRecord))
    #expect(reason.hasPrefix("the record's value was refused: binary property list: "), "\(reason)")
    #expect(reason.contains("1048578"), "\(reason)")
  }

  @Test func truncatedOversizedAndForeignRecordsAreRefused() {
    var oversized = CloudRecordCodec.header(timestamp)
    oversized.append(Data(count: CloudRecordCodec.maximumRecordBytes))
    #expect(
      refusal(oversized)
        == "the record is larger than 4 MiB (\(oversized.count) bytes)")
    #expect(refusal(Data("plain text".utf8)) == "not an ObservableDefaults record (10 bytes)")
    var header = CloudRecordCodec.header(timestamp)
    header.removeLast()
    #expect(refusal(header) == "the record's device is not terminated")
    var badDevice = Data(CloudRecordCodec.header(timestamp).prefix(17))
    badDevice.append(contentsOf: [0xFF, 0xFE, 0])
    #expect(refusal(badDevice) == "the record's device is not UTF-8")
    let xml = CloudRecordCodec.header(timestamp) + Data("<plist><array/></plist>".utf8)
    #expect(refusal(xml) == "the record's value was refused: it is not a binary property list")
  }

  @Test func everyValueTypeRoundTripsThroughTheValidatingDecoder() throws {
    let value: [Any] = [
      "text", 42, -1, 2.5, true, Date(timeIntervalSinceReferenceDate: 0.25), Data([0, 1]),
      ["k": [1, "two"]], UInt64.max,
    ]
    let decoded = try CloudRecordCodec.decode(
      CloudRecordCodec.encode(CloudRecord(value: value, timestamp: timestamp)))
    #expect(propertyListValuesEqual(decoded.value, value))
    #expect(decoded.timestamp == timestamp)
  }
}

/// The hybrid clock never traps and never adopts a timestamp from far in the future.
@Suite struct CloudClockBoundsTests {
  @Test func theClockSaturatesAtTheLargestTimeAndCounter() {
    var clock = HybridLogicalClock(device: "d", wallClock: { .max })
    #expect(clock.next() == CloudTimestamp(time: .max, counter: 0, device: "d"))
    #expect(clock.next() == CloudTimestamp(time: .max, counter: 1, device: "d"))
    clock.observe(CloudTimestamp(time: .max, counter: .max, device: "e"))
    #expect(clock.next() == CloudTimestamp(time: .max, counter: .max, device: "d"))
    #expect(clock.next() == CloudTimestamp(time: .max, counter: .max, device: "d"))
  }

  @Test func aFullCounterMovesTheTimeOn() {
    var clock = HybridLogicalClock(device: "d", wallClock: { 1_000 })
    clock.observe(CloudTimestamp(time: 1_000, counter: .max, device: "e"))
    #expect(clock.next() == CloudTimestamp(time: 1_001, counter: 0, device: "d"))
  }

  @Test func aTimestampMoreThanADayAheadIsNotAdopted() {
    let wall: Int64 = 1_764_420_000_000_000
    var clock = HybridLogicalClock(device: "d", wallClock: { wall })
    let day = HybridLogicalClock.maximumLead
    #expect(day == 86_400_000_000)
    #expect(clock.admits(CloudTimestamp(time: wall + day, counter: 5, device: "e")))
    #expect(!clock.admits(CloudTimestamp(time: wall + day + 1, counter: 0, device: "e")))
    clock.observe(CloudTimestamp(time: .max, counter: .max, device: "e"))
    #expect(clock.next() == CloudTimestamp(time: wall, counter: 0, device: "d"))
    clock.observe(CloudTimestamp(time: wall + day, counter: 5, device: "e"))
    #expect(clock.next() == CloudTimestamp(time: wall + day, counter: 6, device: "d"))
  }

  @Test func aDeviceRefusesAFarFutureRecordAndKeepsWriting() async throws {
    let planter = InMemoryCloudBackend()
    let device = planter.anotherDevice(account: "default")
    let store = NSUbiquitousKeyValueStore(backend: device)
    store.set("mine", forKey: "k")
    store.synchronize()
    try planter.save([
      "k": CloudRecord(
        value: "forever", timestamp: CloudTimestamp(time: .max, counter: .max, device: "x")),
      "other": CloudRecord(
        value: "fine", timestamp: CloudTimestamp(time: 1, counter: 0, device: "x")),
    ])
    #expect(await poll { store.string(forKey: "other") == "fine" })
    #expect(store.string(forKey: "k") == "mine")
    // Its next write does not trap, and carries a time of this era.
    store.set("still mine", forKey: "k2")
    store.synchronize()
    let written = try #require(planter.load().records["k2"])
    #expect(written.timestamp.time < HybridLogicalClock.now() + 1_000_000)
    #expect(store.string(forKey: "k2") == "still mine")
  }
}
