import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// Records planted in a real etcd account by whoever can write its keys: a set, a
/// shared-reference expansion and a far-future timestamp crash, stall or stop no device, and the
/// account's other keys still sync.
@Suite struct EtcdHostileRecordTests {
  @Test func plantedRecordsAreSkippedAndTheAccountStillSyncs() async throws {
    let cluster = try await EtcdTestCluster.shared()
    let root = freshEtcdRoot()
    func device() throws -> NSUbiquitousKeyValueStore {
      NSUbiquitousKeyValueStore(
        backend: try EtcdCloudBackend(
          configuration: EtcdConfiguration(
            endpoints: cluster.endpoints, root: root, container: "hostile", account: "a")))
    }
    let first = try device()
    let second = try device()
    first.set("mine", forKey: "k")
    #expect(first.synchronize())
    #expect(await poll { second.string(forKey: "k") == "mine" })

    let layout = EtcdKeyLayout(root: root, container: "hostile", account: "a")
    let future = CloudRecordCodec.header(
      CloudTimestamp(time: .max, counter: .max, device: "planter"))
    let farFuture = try CloudRecordCodec.encode(
      CloudRecord(value: "forever", timestamp: CloudTimestamp(time: .max, counter: 0, device: "p")))
    _ = try cluster.client().txn(
      EtcdTxnRequest(success: [
        .put(EtcdPutRequest(key: layout.key("set"), value: HostileCloudRecords.setRecord)),
        .put(
          EtcdPutRequest(key: layout.key("expansion"), value: HostileCloudRecords.expandingRecord)),
        .put(EtcdPutRequest(key: layout.key("k"), value: farFuture)),
        .put(EtcdPutRequest(key: layout.key("header only"), value: future)),
      ]))

    first.set("after", forKey: "later")
    #expect(first.synchronize())
    #expect(await poll { second.string(forKey: "later") == "after" })
    // A device started now loads the account with the planted keys left out.
    let third = try device()
    #expect(third.string(forKey: "later") == "after")
    #expect(third.object(forKey: "set") == nil && third.object(forKey: "expansion") == nil)
    #expect(third.string(forKey: "k") != "forever")
    #expect(second.string(forKey: "k") == "mine")
    // The keys are shown as undecodable, with the reason.
    #expect(
      third.refusal(forKey: "set")
        == "the record's value was refused: binary property list: object 1 at byte 10 is a set, "
        + "which preferences cannot hold")
    #expect(
      third.refusal(forKey: "k")
        == "its timestamp 9223372036854775807.0@p is more than 24 hours ahead of this device's clock"
    )
    #expect(third.refusal(forKey: "later") == nil)
    // Writes go on without trapping on the planted clock.
    second.set(2, forKey: "count")
    #expect(second.synchronize())
    #expect(await poll { first.longLong(forKey: "count") == 2 })
  }

  @Test func aReplyOfManyBadRecordsMakesOneDiagnostic() {
    let layout = EtcdKeyLayout(root: "hostile-\(UUID().uuidString)", container: "c", account: "a")
    let kvs = (0..<1_000).map { index in
      EtcdKeyValue(
        key: layout.key("bad \(index)"), value: HostileCloudRecords.setRecord, modRevision: nil)
    }
    let good = EtcdKeyValue(
      key: layout.key("good"),
      value: try? CloudRecordCodec.encode(
        CloudRecord(value: "fine", timestamp: HostileCloudRecords.timestamp)),
      modRevision: nil)
    let recorder = DiagnosticsRecorder()
    defer { recorder.stop() }
    let records = EtcdRecordReader.records(kvs + [good], layout: layout).records
    #expect(records.keys.sorted() == ["good"])
    // The next read of the same account (every save and watch reads it) reports nothing again.
    #expect(
      EtcdRecordReader.records(kvs + [good], layout: layout).records.keys.sorted() == ["good"])
    let reported = recorder.messages.filter { $0.contains(layout.prefix) }
    #expect(
      reported == [
        "skipped etcd key \(layout.prefix)bad 0: the record's value was refused: binary property "
          + "list: object 1 at byte 10 is a set, which preferences cannot hold (and 999 more)"
      ])
  }
}
