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
    let cluster = try await NATSTestCluster.shared()
    try await withTemporaryFolder { folder in
      var online = cluster.configuration(container: freshNATSContainer())
      online.stateDirectory = folder.url
      var offline = online
      offline.servers = ["nats://127.0.0.1:\(try LoopbackServer.freePorts(1)[0])"]
      offline.requestTimeout = 0.5
      let journal = folder.url.appendingPathComponent("\(online.container)/default.plist")

      // The device ends (as its process would) once its last save gave up.
      let ended = try await runDeviceToItsEnd(offline) { store in
        store.set("made offline", forKey: "k")
        #expect(!store.synchronize())
        #expect(store.syncStatus.summary == "offline, 1 pending", "counted once")
      }
      #expect(ended)
      let kept = try #require(try PropertyListFile(url: journal).read()?.values)
      #expect((kept["pending"] as? [String: Any])?.keys.sorted() == ["k"])

      // Restarted, still offline: the write is there, pending (the journal's, not the store's).
      let restartedEnded = try await runDeviceToItsEnd(offline) { store in
        #expect(store.string(forKey: "k") == "made offline")
        #expect(store.syncStatus.summary == "offline, 1 pending")
      }
      #expect(restartedEnded)

      // Restarted with a server: the first load pushes it.
      let device = try NATSCloudBackend(configuration: online)
      let store = NSUbiquitousKeyValueStore(backend: device)
      #expect(store.string(forKey: "k") == "made offline")
      #expect(await poll { store.syncStatus.summary == "synced" })
      let reader = try NATSCloudBackend(
        configuration: cluster.configuration(container: online.container))
      #expect(try reader.load().records["k"]?.value as? String == "made offline")
      let after = try #require(try PropertyListFile(url: journal).read()?.values)
      #expect((after["pending"] as? [String: Any])?.isEmpty == true)
    }
  }

  @Test func aDeviceRestartedWhileItsServerIsDownPushesItsJournalOnceTheServerIsBack()
    async throws
  {
    let cluster = try await NATSTestCluster.singleServer()
    defer { cluster.remove() }
    let server = cluster.servers[0]
    try await withTemporaryFolder { folder in
      var configuration = cluster.configuration(container: freshNATSContainer())
      configuration.stateDirectory = folder.url
      configuration.requestTimeout = 1
      let ended = try await runDeviceToItsEnd(configuration) { store in
        store.set("synced", forKey: "before")
        #expect(store.synchronize())
        server.kill9()
        for index in 0..<10 { store.set("v\(index)", forKey: "k\(index)") }
        #expect(!store.synchronize())
      }
      #expect(ended)

      // Restarted while the server is still down: libnats connects in the background.
      let device = try NATSCloudBackend(configuration: configuration)
      let store = NSUbiquitousKeyValueStore(backend: device)
      #expect(store.string(forKey: "k9") == "v9")
      let during = store.syncStatus.summary
      #expect(during == "offline, 10 pending")
      await SyncFaultSoak.hold(upTo: .seconds(5))
      try server.start()
      try await cluster.waitUntilReady()
      // No write and no synchronize(): the first exchange pushes the journal.
      var expected = Dictionary(uniqueKeysWithValues: (0..<10).map { ("k\($0)", "v\($0)") })
      expected["before"] = "synced"
      let reader = try NATSCloudBackend(
        configuration: cluster.configuration(container: configuration.container))
      #expect(
        await poll(within: .seconds(30)) {
          (try? reader.load().records.compactMapValues { $0.value as? String }.stringKeyed)
            == expected
        }, "\(store.syncStatus) \(store.syncStatus.lastError ?? "-")")
      #expect(await poll { store.syncStatus.summary == "synced" })
      SyncFaultMatrix.expectDocumented(
        SyncFaultRow(
          engine: "NATS", fault: "restarted while its server is down, with pending writes",
          toldDuring: during, statusExit: nil, toldAfter: store.syncStatus.summary,
          writesArrive: true))
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
