import Foundation
import ObservableDefaultsCore
import Testing

@testable import ObservableDefaultsEtcd

/// The etcd backend's own rules: key layout, record bytes, transaction limits, the cursor.
@Suite struct EtcdBackendTests {
  @Test func keysArePercentEncodedSoNoTwoContainersOrAccountsCollide() {
    let slash = EtcdKeyLayout(root: "r", container: "a/b", account: "me")
    let underscore = EtcdKeyLayout(root: "r", container: "a_b", account: "me")
    #expect(slash.prefix == "/r/a%2Fb/me/")
    #expect(underscore.prefix == "/r/a_b/me/")
    #expect(
      String(decoding: slash.key("dark mode/ü"), as: UTF8.self)
        == "/r/a%2Fb/me/dark%20mode%2F%C3%BC")
    #expect(slash.storeKey(slash.key("dark mode/ü")) == "dark mode/ü")
    #expect(slash.storeKey(underscore.key("k")) == nil)
    #expect(String(decoding: slash.rangeEnd, as: UTF8.self) == "/r/a%2Fb/me0")
  }

  @Test func headerBytesSortAsTimestampsDo() {
    let timestamps = [
      CloudTimestamp(time: -5, counter: 0, device: "a"),
      CloudTimestamp(time: 0, counter: 0, device: "a"),
      CloudTimestamp(time: 1_764_000_000_000_000, counter: 0, device: "a"),
      CloudTimestamp(time: 1_764_000_000_000_000, counter: 0, device: "ab"),
      CloudTimestamp(time: 1_764_000_000_000_000, counter: 0, device: "b"),
      CloudTimestamp(time: 1_764_000_000_000_000, counter: 1, device: "a"),
      CloudTimestamp(time: 1_764_000_000_000_001, counter: 0, device: "a"),
    ]
    for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
      #expect(earlier < later)
      #expect(
        CloudRecordCodec.header(earlier).lexicographicallyPrecedes(CloudRecordCodec.header(later)))
      // A stored record (header + value) is below a later header, and not below its own.
      let stored = try! CloudRecordCodec.encode(CloudRecord(value: "v", timestamp: earlier))
      #expect(stored.lexicographicallyPrecedes(CloudRecordCodec.header(later)))
      #expect(!stored.lexicographicallyPrecedes(CloudRecordCodec.header(earlier)))
    }
  }

  @Test func valuesRoundTripExactly() throws {
    let values: [Any] = [
      Date(timeIntervalSince1970: 1_700_000_000.123456), Data([0, 255, 10]), Int.min, Int.max, -1,
      UInt64.max, 0.1, Double.greatestFiniteMagnitude, -0.0, "ü\n\u{0}", true, [1, "a", [2.5]],
      ["k": ["n": 1]],
    ]
    for value in values {
      let timestamp = CloudTimestamp(time: 42, counter: 7, device: "4711-ABCD")
      let decoded = try CloudRecordCodec.decode(
        CloudRecordCodec.encode(CloudRecord(value: value, timestamp: timestamp)))
      #expect(
        propertyListValuesEqual(decoded.value, PropertyListValue.normalized(value)),
        Comment(rawValue: String(describing: value)))
      #expect(decoded.timestamp == timestamp)
    }
    let removal = try CloudRecordCodec.decode(
      CloudRecordCodec.encode(
        CloudRecord(value: nil, timestamp: CloudTimestamp(time: 1, counter: 0, device: "d"))))
    #expect(removal.value == nil)
    #expect(throws: CloudRecordError.self) { try CloudRecordCodec.decode(Data("plain text".utf8)) }
  }

  @Test func savesAreGroupedWithinEtcdsTransactionLimits() {
    func entries(_ count: Int, bytes: Int) -> [EtcdSaveTransaction.Entry] {
      (0..<count).map {
        EtcdSaveTransaction.Entry(
          key: Data("/k\($0)".utf8), header: Data([1]), bytes: Data(count: bytes))
      }
    }
    #expect(EtcdSaveTransaction.groups(entries(128, bytes: 10)).map(\.count) == [128])
    #expect(EtcdSaveTransaction.groups(entries(300, bytes: 10)).map(\.count) == [128, 128, 44])
    #expect(EtcdSaveTransaction.groups(entries(3, bytes: 400_000)).map(\.count) == [2, 1])
  }

  @Test func oneSaveOfManyKeysLandsInOneRevisionAndLargeValuesFit() async throws {
    let cluster = try await EtcdTestCluster.shared()
    let configuration = EtcdConfiguration(
      endpoints: cluster.endpoints, root: freshEtcdRoot(), container: "limits")
    let backend = try EtcdCloudBackend(configuration: configuration)
    let timestamp = CloudTimestamp(time: 1, counter: 0, device: "d")
    let keys = (0..<120).map { "key \($0)" }
    try backend.save(
      Dictionary(
        uniqueKeysWithValues: keys.map {
          (PropertyListKey($0), CloudRecord(value: $0, timestamp: timestamp))
        }))
    let layout = EtcdKeyLayout(
      root: configuration.root, container: "limits", account: configuration.account)
    let stored =
      try cluster.client().range(key: layout.prefixKey, rangeEnd: layout.rangeEnd).kvs ?? []
    #expect(stored.count == 120)
    #expect(Set(stored.compactMap { $0.modRevision?.value }).count == 1)

    let large = Data((0..<900_000).map { UInt8($0 % 251) })
    try backend.save(["large": CloudRecord(value: large, timestamp: timestamp)])
    try backend.save(
      Dictionary(
        uniqueKeysWithValues: (0..<300).map { (index: Int) in
          (PropertyListKey("many \(index)"), CloudRecord(value: index, timestamp: timestamp))
        }))
    let loaded = try EtcdCloudBackend(configuration: configuration).load()
    #expect(loaded.records["large"]?.value as? Data == large)
    #expect(loaded.records.count == 421)
    #expect(backend.syncStatus.pendingCount == 0)
  }

  @Test func theCursorIsTheHighestRevisionUnderThePrefixNotTheClusters() async throws {
    let cluster = try await EtcdTestCluster.shared()
    let mine = try EtcdCloudBackend(
      configuration: EtcdConfiguration(
        endpoints: cluster.endpoints, root: freshEtcdRoot(), container: "cursor"))
    let others = try EtcdCloudBackend(
      configuration: EtcdConfiguration(
        endpoints: cluster.endpoints, root: freshEtcdRoot(), container: "cursor"))
    let timestamp = CloudTimestamp(time: 1, counter: 0, device: "d")
    try mine.save(["k": CloudRecord(value: 1, timestamp: timestamp)])
    let cursor = try #require(EtcdCursor(try mine.load().cursor))
    try others.save(["k": CloudRecord(value: 2, timestamp: timestamp)])
    #expect(try EtcdCursor(mine.load().cursor) == cursor)
    #expect(try cluster.revision() > cursor.revision)
  }
}
