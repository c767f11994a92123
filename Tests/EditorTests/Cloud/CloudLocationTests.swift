import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsEtcd
import Testing

@testable import SettingsEditor

/// A cloud object's header names its sync engine, the server in use and the account; the
/// embedded container names none.
@MainActor
@Suite struct CloudLocationTests {
  @Test func aCloudObjectOnASyncEngineNamesItsServerAndAccount() throws {
    let backend = try EtcdCloudBackend(
      configuration: EtcdConfiguration(
        endpoints: ["http://127.0.0.1:1"], container: "app", account: "alice", requestTimeout: 0.2))
    let engine = SettingsObjectRows(
      AnySettings(StatusCloudSettings(store: NSUbiquitousKeyValueStore(backend: backend))))
    #expect(engine.location == "cloud key-value store on etcd http://127.0.0.1:1, account alice")
    let embedded = SettingsObjectRows(
      AnySettings(
        StatusCloudSettings(store: NSUbiquitousKeyValueStore(backend: InMemoryCloudBackend()))))
    #expect(embedded.location == "cloud key-value store")
  }
}
