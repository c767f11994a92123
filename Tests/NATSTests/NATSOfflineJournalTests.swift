import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// A device's writes made while no server answers live in its journal: they survive the
/// process's end, the restarted device shows them while still offline, and its first exchange
/// with a server pushes them.
@Suite struct NATSOfflineJournalTests {
  @Test func writesMadeOfflineSurviveARestartAndThenReachTheBucket() async throws {
    let cluster = try NATSTestCluster.shared.get()
    try await withTemporaryFolder { folder in
      var online = cluster.configuration(container: freshNATSContainer())
      online.stateDirectory = folder.url
      var offline = online
      offline.servers = ["nats://127.0.0.1:\(try LoopbackServer.freePorts(1)[0])"]
      offline.requestTimeout = 0.5
      let journal = folder.url.appendingPathComponent("\(online.container)/default.plist")

      weak var ended: NATSCloudBackend?
      do {
        let backend = try NATSCloudBackend(configuration: offline)
        ended = backend
        let store = NSUbiquitousKeyValueStore(backend: backend)
        store.set("made offline", forKey: "k")
        #expect(!store.synchronize())
        #expect(store.syncStatus.summary == "offline, 1 pending", "counted once")
      }
      // The device ends (as its process would) once its last save gave up.
      #expect(await poll { ended == nil })
      let kept = try #require(try PropertyListFile(url: journal).read()?.values)
      #expect((kept["pending"] as? [String: Any])?.keys.sorted() == ["k"])

      do {
        // Restarted, still offline: the write is there, pending (the journal's, not the store's).
        let backend = try NATSCloudBackend(configuration: offline)
        ended = backend
        let store = NSUbiquitousKeyValueStore(backend: backend)
        #expect(store.string(forKey: "k") == "made offline")
        #expect(store.syncStatus.summary == "offline, 1 pending")
      }
      #expect(await poll { ended == nil })

      // Restarted with a server: the first load pushes it.
      let device = try NATSCloudBackend(configuration: online)
      let store = NSUbiquitousKeyValueStore(backend: device)
      #expect(store.string(forKey: "k") == "made offline")
      #expect(await poll { store.syncStatus.summary == "connected" })
      let reader = try NATSCloudBackend(
        configuration: cluster.configuration(container: online.container))
      #expect(try reader.load().records["k"]?.value as? String == "made offline")
      let after = try #require(try PropertyListFile(url: journal).read()?.values)
      #expect((after["pending"] as? [String: Any])?.isEmpty == true)
    }
  }

  @Test func aJournalThatDoesNotParseIsRefusedAndLeftUntouched() async throws {
    try await withTemporaryFolder { folder in
      let journal = folder.url.appendingPathComponent("app/default.plist")
      try FileManager.default.createDirectory(
        at: journal.deletingLastPathComponent(), withIntermediateDirectories: true)
      let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>pending".utf8)
      try garbage.write(to: journal)
      let configuration = NATSConfiguration(
        servers: ["nats://127.0.0.1:\(try LoopbackServer.freePorts(1)[0])"], container: "app",
        stateDirectory: folder.url)
      #expect {
        try NATSCloudBackend(configuration: configuration)
      } throws: { error in
        (error as? PropertyListError)?.kind == .malformed
      }
      #expect(try Data(contentsOf: journal) == garbage)
    }
  }
}
