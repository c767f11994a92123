import CNATS
import Foundation
import ObservableDefaultsCore
import Synchronization
import Testing

@testable import ObservableDefaultsNATS

/// Apple's key limits held across devices: 1,024 keys per container (the library's merge on the
/// bucket's exact state), at most 2,048 for any client (the servers' `MaxMsgs`, which also
/// counts removed keys), and 64-byte keys.
@Suite struct NATSQuotaTests {
  let cluster: NATSTestCluster
  let configuration: NATSConfiguration
  let layout: NATSKeyLayout

  init() async throws {
    cluster = try await NATSTestCluster.shared()
    configuration = cluster.configuration(container: freshNATSContainer())
    layout = NATSKeyLayout(container: configuration.container, account: "default")
  }

  func record(_ value: Int, at time: Int64) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: "d"))
  }

  /// The keys `save` refused (none when it saved everything); other errors are recorded.
  func refusedKeys(_ save: () throws -> Void) -> [String] {
    do {
      try save()
      return []
    } catch let violation as CloudQuotaViolation {
      return violation.keys.map(\.string)
    } catch {
      Issue.record(error)
      return []
    }
  }

  @Test func twoDevicesOnTwoServersAdding600KeysEachStore1024AndAreToldTheRest() throws {
    let devices = try cluster.servers.prefix(2).map { server in
      var configuration = configuration
      configuration.servers = [cluster.urls[cluster.servers.firstIndex { $0 === server }!]]
      return try NATSCloudBackend(configuration: configuration)
    }
    _ = try devices[0].load()
    let wanted = (0..<2).map { device in (0..<600).map { "device\(device)-key\($0)" } }
    let refused = Mutex<[[String]]>([[], []])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let records = Dictionary(
        uniqueKeysWithValues: wanted[index].map {
          (PropertyListKey($0), record(index, at: Int64(index + 1)))
        })
      let keys = refusedKeys { try devices[index].save(records) }
      refused.withLock { $0[index] = keys }
    }
    let told = refused.withLock { $0 }
    let stored = Set(
      try NATSCloudBackend(configuration: configuration).load().records.keys.map(\.string))
    #expect(stored.count == 1024)
    #expect(told.map(\.count).reduce(0, +) == 176)
    // Each device is told exactly its own keys that the container does not hold.
    for index in 0..<2 {
      #expect(told[index] == wanted[index].filter { !stored.contains($0) }.sorted())
    }
  }

  @Test func theServersRefuseAnyClientsKeyPastTheCountButNotAReplacement() throws {
    // A first device makes the bucket; the one that saves reads the garbage in one batch.
    _ = try NATSCloudBackend(configuration: configuration).load()
    let client = try NATSTestClient(url: cluster.urls[1], user: NATSTestCluster.accountA)
    let config = try client.request("$JS.API.STREAM.INFO.\(layout.stream)").body["config"]
    let limits = config as? [String: Any] ?? [:]
    #expect(limits["max_msgs"] as? Int == 2049)
    #expect(limits["discard"] as? String == "new")
    // A client without the library's quota check writes 2,048 keys of garbage (which devices
    // skip, so they do not count them): the 2,049th key is refused, a replacement is not.
    let store = try client.bucket(layout.bucket)
    defer { kvStore_Destroy(store) }
    for index in 0..<2048 { try client.put(Data("x".utf8), key: "k\(index)", in: store) }
    #expect(
      throws: NATSTestClient.Failure(status: NATS_ERR, code: 0, text: "maximum messages exceeded")
    ) {
      try client.put(Data("x".utf8), key: "one-too-many", in: store)
    }
    try client.put(Data("y".utf8), key: "k0", in: store)
    // A device's save, which counts no key of garbage, is refused by the server as a quota
    // violation.
    let device = try NATSCloudBackend(configuration: configuration)
    #expect(throws: CloudQuotaViolation(keys: ["new"])) {
      try device.save(["new": record(1, at: 1)])
    }
  }

  @Test func aKeyOfMoreThan64BytesIsRefusedAndOneOf64Stored() throws {
    let device = try NATSCloudBackend(configuration: configuration)
    let longest = String(repeating: "k", count: 64)
    #expect(throws: CloudQuotaViolation(keys: [PropertyListKey(longest + "k")])) {
      try device.save([
        PropertyListKey(longest): record(1, at: 1),
        PropertyListKey(longest + "k"): record(2, at: 1),
      ])
    }
    #expect(try device.load().records.keys.sorted() == [PropertyListKey(longest)])
  }
}
