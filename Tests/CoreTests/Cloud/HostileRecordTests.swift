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

  /// Records past a reader's limits (arrays nested 600 deep, a value that refers to itself) or
  /// past Apple's quota (a 3 MiB string within the 4 MiB a record may take, a 65-byte key)
  /// among a good one, as a networked backend decodes a reply: each is skipped with its reason,
  /// and the good one is taken.
  @Test func recordsPastAReadersLimitOrTheQuotaAreSkippedAndTheOthersTaken() throws {
    let text = [UInt8](repeating: UInt8(ascii: "s"), count: 3 << 20)
    let length = withUnsafeBytes(of: UInt32(text.count).bigEndian) { [UInt8]($0) }
    let long = record(value: [[0xA1, 1], [0x5F, 0x12] + length + text])
    let cyclic = record(value: [[0xA1, 1], [0xA1, 1]])
    let deep = try CloudRecordCodec.encode(
      CloudRecord(value: (0..<600).reduce("x" as Any) { inner, _ in [inner] }, timestamp: timestamp)
    )
    let good = try CloudRecordCodec.encode(CloudRecord(value: "fine", timestamp: timestamp))
    let longKey = String(repeating: "k", count: 65)
    let decoded = CloudRecordCodec.records(
      [("deep", deep), ("cyclic", cyclic), ("long", long), (longKey, good), ("good", good)].map {
        (key: $0.0, bytes: $0.1)
      }
    ) { "key \($0)" }
    #expect(Array(decoded.records.keys) == ["good"])
    #expect(decoded.records["good"]?.value as? String == "fine")
    #expect(
      decoded.refused == [
        "deep": "the record's value was refused: binary property list: arrays and "
          + "dictionaries are nested deeper than 512 levels",
        "cyclic": "the record's value was refused: binary property list: object 1 contains "
          + "itself",
        "long": "the record is beyond the quota: its key and value take 3145732 bytes, more "
          + "than the quota's 1048576",
        PropertyListKey(longKey): "the record is beyond the quota: its key takes 65 bytes, more "
          + "than the quota's 64",
      ])
  }

  /// A container file another program wrote, holding records no device keeping the quota could
  /// have stored, among a good one: the embedded backend gives the good one and refuses the
  /// others with their reasons, as a networked backend does. (It gave them all.)
  @Test func anEmbeddedContainerRefusesRecordsPastTheQuota() async throws {
    try await withTemporaryFolder { folder in
      let backend = EmbeddedCloudBackend(root: folder.url, container: "app", account: "alice")
      let longKey = PropertyListKey(String(repeating: "k", count: 65))
      let entries = [
        "good": "fine", longKey.string: "fine", "large": String(repeating: "s", count: 1 << 20),
      ].map { key, value in
        (
          PropertyListKey(key),
          CloudContainerContents.Entry(
            record: CloudRecord(value: value, timestamp: timestamp), revision: 1)
        )
      }
      let contents = CloudContainerContents(
        revision: 1, entries: Dictionary(uniqueKeysWithValues: entries))
      _ = try PropertyListFile(url: backend.fileURL).apply(
        contents.propertyList.mapValues { .set($0) })
      let batch = try backend.load()
      #expect(Array(batch.records.keys) == ["good"])
      #expect(
        batch.refused == [
          longKey: "the record is beyond the quota: its key takes 65 bytes, more than the "
            + "quota's 64",
          "large": "the record is beyond the quota: its key and value take 1048581 bytes, more "
            + "than the quota's 1048576",
        ])
    }
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
