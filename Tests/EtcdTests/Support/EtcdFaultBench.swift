import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// Two devices of one container on a cluster of their own, for the fault matrix: a writer that
/// writes through a fault, and a reader that must receive every acknowledged write afterwards.
/// Each device keeps its journal in a folder of its own; `settings-editor cloud status` is run
/// on the writer's folder, so it reports the writer's journal.
final class EtcdFaultBench {
  let cluster: EtcdTestCluster
  let folder: TemporaryFolder
  let root = freshEtcdRoot()
  let writerBackend: EtcdCloudBackend
  let writer: NSUbiquitousKeyValueStore
  let reader: NSUbiquitousKeyValueStore
  /// The writes acknowledged so far (the store took them): key → value.
  private(set) var acknowledged: [String: String] = [:]

  /// The container: `faults`, or the program's name for a program run as another process.
  let container: String

  /// The etcd users of the writer and the reader, when the cluster has authentication on.
  let users: (writer: EtcdCredentials?, reader: EtcdCredentials?)

  /// Starts a cluster of `size` members and two devices of `container` that reach every member.
  ///
  /// - Parameters:
  ///   - users: The writer's and the reader's etcd users.
  ///   - namespace: The network namespace the members run in (nil: this machine's loopback).
  ///   - prepare: Runs on the cluster before the devices start (say, turns authentication on),
  ///     given the `etcdctl` command that reaches it and the account's key prefix.
  static func started(
    size: Int = 3, container: String = "faults",
    users: (writer: EtcdCredentials?, reader: EtcdCredentials?) = (nil, nil),
    namespace: NetworkNamespace? = nil,
    prepare: (_ etcdctl: String, _ prefix: String) throws -> Void = { _, _ in }
  ) async throws -> EtcdFaultBench {
    let cluster = try await EtcdTestCluster.started(size: size, namespace: namespace)
    return try EtcdFaultBench(
      cluster: cluster, container: container, users: users, prepare: prepare)
  }

  private init(
    cluster: EtcdTestCluster, container: String,
    users: (writer: EtcdCredentials?, reader: EtcdCredentials?),
    prepare: (_ etcdctl: String, _ prefix: String) throws -> Void
  ) throws {
    self.container = container
    self.users = users
    self.cluster = cluster
    let folder = try TemporaryFolder(prefix: "etcd-faults")
    self.folder = folder
    try prepare(
      EtcdTestCluster.etcdctl(cluster.endpoints),
      EtcdKeyLayout(root: root, container: container, account: "a").prefix)
    let configuration = { [cluster, root] (device: String, user: EtcdCredentials?) in
      Self.configuration(
        cluster: cluster, root: root, container: container, state: folder.file(device),
        credentials: user)
    }
    writerBackend = try EtcdCloudBackend(configuration: configuration("writer", users.writer))
    writer = NSUbiquitousKeyValueStore(backend: writerBackend)
    reader = NSUbiquitousKeyValueStore(
      backend: try EtcdCloudBackend(configuration: configuration("reader", users.reader)))
  }

  deinit {
    cluster.remove()
  }

  /// A device's configuration: its journal in `device`'s folder, short time limits, so faults
  /// show within seconds.
  func configuration(device: String) -> EtcdConfiguration {
    Self.configuration(
      cluster: cluster, root: root, container: container, state: folder.file(device),
      credentials: users.reader)
  }

  private static func configuration(
    cluster: EtcdTestCluster, root: String, container: String, state: URL,
    credentials: EtcdCredentials?
  ) -> EtcdConfiguration {
    EtcdConfiguration(
      endpoints: cluster.endpoints, root: root, container: container, account: "a",
      credentials: credentials, requestTimeout: 1, heartbeatInterval: 1, stateDirectory: state)
  }

  /// Writes `value` under `key` on the writer; the store acknowledges it by taking it.
  func write(_ value: String, forKey key: String) {
    writer.set(value, forKey: key)
    acknowledged[key] = value
  }

  /// The writer's summary once it stopped changing for 3 s (within 40 s).
  func settledSummary() async -> String {
    await SyncFaultMatrix.settled { writer.syncStatus.summary }
  }

  /// The account's etcd keys.
  var layout: EtcdKeyLayout {
    EtcdKeyLayout(root: root, container: container, account: "a")
  }

  /// The environment that makes a program of this package a device of the container, with
  /// its journal in `device`'s folder.
  func environment(device: String) -> [String: String] {
    let user = device == "reader" ? users.reader : users.writer
    let variables = [
      EtcdConfiguration.endpointsVariable: cluster.endpoints.joined(separator: ","),
      "OBSERVABLE_DEFAULTS_ETCD_ROOT": root, "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "a",
      "OBSERVABLE_DEFAULTS_ETCD_STATE_DIRECTORY": folder.file(device).path,
      "XDG_CONFIG_HOME": folder.file("config").path,
    ]
    guard let user else { return variables }
    return variables.merging([
      EtcdCredentials.userVariable: user.user, EtcdCredentials.passwordVariable: user.password,
    ]) { $1 }
  }

  /// The exit status of `settings-editor cloud status <container>` on the journal of `device`
  /// (the writer's by default).
  func cloudStatusExit(device: String = "writer") throws -> Int32 {
    try ChildProcess.run(
      ChildProcess.builtProgram("settings-editor"), ["cloud", "status", container],
      environment: environment(device: device)
    ).status
  }

  /// Whether every acknowledged write reached the reader and a device created now, within
  /// `seconds`, without the writer writing again.
  ///
  /// The new device loads again until a load shows them: a load that times out (1 s, which a
  /// loaded machine passes) gives the device's empty journal, as a load while offline does —
  /// which once made the row of credentials refused at launch say `no` while the reader had
  /// every write.
  func everyWriteArrives(within seconds: Int = 40) async throws -> Bool {
    let expected = acknowledged
    let readerHasThem = await poll(within: .seconds(seconds)) {
      expected.allSatisfy { self.reader.string(forKey: $0.key) == $0.value }
    }
    let fresh = try EtcdCloudBackend(configuration: configuration(device: "fresh"))
    let freshHasThem = await poll(within: .seconds(seconds)) {
      let stored = (try? fresh.load().records.compactMapValues { $0.value as? String }) ?? [:]
      return expected.allSatisfy { stored[$0.key] == $0.value }
    }
    return readerHasThem && freshHasThem
  }

  /// The row of `fault`: the writer's summary `during`, the exit status then, the writer's
  /// summary once the fault healed and whether the writes arrived.
  func row(_ fault: String, during: String, statusExit: Int32?, after: String, arrive: Bool)
    -> SyncFaultRow
  {
    SyncFaultRow(
      engine: "etcd", fault: fault, toldDuring: during, statusExit: statusExit, toldAfter: after,
      writesArrive: arrive)
  }
}
