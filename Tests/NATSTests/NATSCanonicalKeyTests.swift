import CNATS
import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// A NATS key names a store key only in the form the library writes it: another client's key in
/// any other form is a refused record, never a second spelling of a store key.
@Suite struct NATSCanonicalKeyTests {
  @Test func aNATSKeyDecodesOnlyInTheFormItsStoreKeyEncodesTo() {
    #expect(NATSKeyLayout.storeKey("a=2Eb") == "a.b")
    #expect(NATSKeyLayout.storeKey("a=2eb") == nil, "lowercase hex")
    #expect(NATSKeyLayout.storeKey("x=-0y") == nil, "a sign: it read as NUL")
    #expect(NATSKeyLayout.storeKey("x=+0y") == nil)
    #expect(NATSKeyLayout.storeKey("=41") == nil, "a letter kept as it is when encoded")
    #expect(NATSKeyLayout.storeKey("=2D") == nil, "`-` is kept as it is")
    #expect(NATSKeyLayout.storeKey("=3D") == "=")
    #expect(NATSKeyLayout.storeKey("=00") == "\u{0}", "a NUL in a store key encodes so")
  }

  @Test func anotherClientsRecordUnderANonCanonicalKeyIsRefusedAndOverridesNothing() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let layout = NATSKeyLayout(container: configuration.container, account: "default")
    let recorder = DiagnosticsRecorder()
    defer { recorder.stop() }

    let writer = try NATSCloudBackend(configuration: configuration)
    try writer.save(["a.b": record("mine", at: 1)])
    // Valid records, later than the device's, under keys that decoded to `a.b` and `x\0y`.
    let client = try NATSTestClient(url: cluster.urls[1], user: NATSTestCluster.accountA)
    let store = try client.bucket(layout.bucket)
    defer { kvStore_Destroy(store) }
    for key in ["a=2eb", "x=-0y"] {
      _ = try client.put(CloudRecordCodec.encode(record("planted", at: 9)), key: key, in: store)
    }

    let loaded = try NATSCloudBackend(configuration: configuration).load()
    #expect(loaded.records.mapValues { $0.value as? String } == ["a.b": "mine"])
    // Reported as other refused records are: each once, one line per batch naming the first
    // (the writer's watch may meet them one by one).
    let refusals = recorder.messages.filter { $0.contains(layout.bucket) }
    let line = { (key: String) in
      "skipped NATS key \(layout.bucket).\(key): not the canonical encoding of a store key"
    }
    let possible = [[line("a=2eb") + " (and 1 more)"], [line("a=2eb"), line("x=-0y")]]
    #expect(possible.contains(refusals), "\(refusals)")
  }

  private func record(_ value: String, at time: Int64) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: "d"))
  }
}
