import Foundation
import ObservableDefaultsCore
import TestSupport

@testable import ObservableDefaultsEtcd

/// A real etcd cluster on 127.0.0.1 (or in a ``NetworkNamespace``) for the tests: members
/// started from Debian's `etcd` binary on free ports, data in a temporary folder, stopped by PID
/// however the tests end (see ``LoopbackServer``).
final class EtcdTestCluster: LoopbackCluster, @unchecked Sendable {
  /// etcd is not installed: the tests fail with this message.
  struct NotInstalled: Error, CustomStringConvertible {
    var description: String {
      "the etcd tests need etcd: apt-get install etcd-server etcd-client (Debian's etcd 3.4 package; `.ci/run` and scripts/test install it)"
    }
  }

  struct ClusterError: Error, CustomStringConvertible {
    let description: String
  }

  final class Member: LoopbackServer, @unchecked Sendable {
    let clientURL: String
    let peerURL: String

    init(name: String, clientURL: String, peerURL: String, arguments: [String], log: URL) {
      self.clientURL = clientURL
      self.peerURL = peerURL
      super.init(name: name, arguments: arguments, log: log)
    }
  }

  /// The cluster every conformance and sync test shares (a fresh key root per test), started
  /// on first use on a thread of its own (see ``onOwnThread(_:)``).
  static func shared() async throws -> EtcdTestCluster {
    try await onOwnThread { try sharedCluster.get() }
  }

  private static let sharedCluster = Result {
    try EtcdTestCluster(size: 3, tls: nil, extraArguments: [], namespace: nil)
  }

  /// Starts a cluster (see ``init(size:tls:extraArguments:namespace:)``) on a thread of its own,
  /// not on the cooperative pool the tests run on (see ``onOwnThread(_:)``).
  static func started(
    size: Int, tls: (certificate: String, key: String, ca: String)? = nil,
    extraArguments: [String] = [], namespace: NetworkNamespace? = nil
  ) async throws -> EtcdTestCluster {
    try await onOwnThread {
      try EtcdTestCluster(
        size: size, tls: tls, extraArguments: extraArguments, namespace: namespace)
    }
  }

  let folder: URL
  let members: [Member]

  /// The members' client URLs.
  var endpoints: [String] { members.map(\.clientURL) }

  /// Starts `size` members and waits until the cluster answers a linearizable read (tests call
  /// ``started(size:tls:extraArguments:namespace:)``, which waits off the cooperative pool).
  ///
  /// - Parameters:
  ///   - size: The number of members.
  ///   - scheme: `http`, or `https` with `tls` (server certificate, key and CA files).
  ///   - extraArguments: More `etcd` flags for every member.
  ///   - namespace: The network namespace the members run in, on its server address (nil: on
  ///     127.0.0.1 of this machine's).
  private init(
    size: Int, tls: (certificate: String, key: String, ca: String)?,
    extraArguments: [String], namespace: NetworkNamespace?
  ) throws {
    guard let etcd = LoopbackServer.executable("etcd") else { throw NotInstalled() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "etcd-tests-\(UUID().uuidString)")
    self.folder = folder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let scheme = tls == nil ? "http" : "https"
    let ports = try LoopbackServer.freePorts(2 * size)
    let names = (0..<size).map { "m\($0)" }
    let host = namespace?.serverAddress ?? "127.0.0.1"
    let peers = names.indices.map { "http://\(host):\(ports[2 * $0 + 1])" }
    let initialCluster = names.indices.map { "\(names[$0])=\(peers[$0])" }.joined(separator: ",")
    var tlsArguments: [String] = []
    if let tls {
      tlsArguments = [
        "--cert-file", tls.certificate, "--key-file", tls.key, "--trusted-ca-file", tls.ca,
        "--client-cert-auth",
      ]
    }
    members = names.indices.map { index in
      let client = "\(scheme)://\(host):\(ports[2 * index])"
      let arguments =
        (namespace?.exec ?? []) + [
          etcd, "--name", names[index], "--data-dir", "\(folder.path)/\(names[index])",
          "--listen-client-urls", client, "--advertise-client-urls", client,
          "--listen-peer-urls", peers[index], "--initial-advertise-peer-urls", peers[index],
          "--initial-cluster", initialCluster, "--initial-cluster-token", "tests-\(ports[0])",
          "--initial-cluster-state", "new", "--logger", "zap", "--log-level", "error",
          "--experimental-watch-progress-notify-interval", "2s",
        ] + tlsArguments + extraArguments
      return Member(
        name: names[index], clientURL: client, peerURL: peers[index], arguments: arguments,
        log: folder.appendingPathComponent("\(names[index]).log"))
    }
    LoopbackClusters.register(self)
    do {
      for member in members { try start(member) }
      if tls == nil { try blockUntilHealthy() }
    } catch {
      stop()
      throw error
    }
  }

  deinit {
    stop()
  }

  /// The `etcdctl` command reaching `endpoints`, with a command timeout of 60 s instead of its
  /// default 5 s: with every core busy, members that are well answer later than 5 s (two
  /// fault-matrix preparations failed with "context deadline exceeded").
  static func etcdctl(_ endpoints: [String]) -> String {
    "ETCDCTL_API=3 etcdctl --command-timeout=60s --endpoints=\(endpoints.joined(separator: ","))"
  }

  /// Starts (or restarts, on its data folder) `member`.
  func start(_ member: Member) throws {
    try member.start()
  }

  /// Kills `member` with `SIGKILL` (by its PID) and waits until it is gone.
  func kill9(_ member: Member) {
    member.kill9()
  }

  /// Stops every member by PID (the `atexit` hook and `deinit` call it too).
  func stop() {
    for member in members { member.kill9() }
  }

  /// Stops the members and removes the data folder.
  func remove() {
    stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// A client of the whole cluster (or of `only` members).
  func client(
    _ only: [Member]? = nil, credentials: EtcdCredentials? = nil,
    tls: CloudTLSFiles = CloudTLSFiles()
  ) -> EtcdClient {
    EtcdClient(
      endpoints: (only ?? members).map(\.clientURL), credentials: credentials, tls: tls,
      requestTimeout: 5,
      connectTimeout: 1)
  }

  /// Waits (up to 20 s) until a linearizable read succeeds, on a thread of its own (see
  /// ``onOwnThread(_:)``).
  func waitUntilHealthy(
    tls: CloudTLSFiles = CloudTLSFiles(), credentials: EtcdCredentials? = nil
  ) async throws {
    try await onOwnThread { try self.blockUntilHealthy(tls: tls, credentials: credentials) }
  }

  /// ``waitUntilHealthy(tls:credentials:)`` blocking the calling thread.
  private func blockUntilHealthy(
    tls: CloudTLSFiles = CloudTLSFiles(), credentials: EtcdCredentials? = nil
  ) throws {
    let client = client(credentials: credentials, tls: tls)
    var lastError: (any Error)?
    let healthy = pollBlocking(within: .seconds(20)) {
      do {
        _ = try client.range(
          key: Data("/health".utf8), rangeEnd: Data("/health0".utf8), countOnly: true)
        return true
      } catch {
        lastError = error
        return false
      }
    }
    if healthy { return }
    throw ClusterError(
      description:
        "the etcd cluster did not become healthy in 20 s: \(lastError.map { "\($0)" } ?? "")")
  }

  private struct MemberHeader: Decodable {
    var memberId: String?
  }

  private struct StatusHeader: Decodable {
    var header: MemberHeader?
    var leader: String?
  }

  /// The member that is the leader now (nil when none answers with a leader).
  func leader() -> Member? {
    for member in members where member.isRunning {
      guard
        let status: StatusHeader = try? client([member]).call(
          "/v3/maintenance/status", [String: String]()),
        let leader = status.leader, status.header?.memberId == leader
      else { continue }
      return member
    }
    return nil
  }

  /// Compacts the history up to `revision` (physically).
  func compact(to revision: Int64) throws {
    struct Compaction: Encodable {
      let revision: EtcdInt64
      let physical: Bool
    }
    let _: EtcdTxnResponse = try client().call(
      "/v3/kv/compaction", Compaction(revision: EtcdInt64(revision), physical: true))
  }

  /// The cluster's current revision.
  func revision() throws -> Int64 {
    try client().range(key: Data("/".utf8), rangeEnd: Data("0".utf8), countOnly: true).header?
      .revision?.value ?? 0
  }
}

/// A fresh key root for one test on the shared cluster.
func freshEtcdRoot() -> String {
  "tests-\(UUID().uuidString.prefix(12))"
}
