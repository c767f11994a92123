import CNATS
import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS
import TestSupport

/// A real NATS JetStream cluster on 127.0.0.1 for the tests (3 servers, or one; see
/// ``Options``): `nats-server` (Debian's package) on free ports, one configuration file per
/// server with a `cluster` block, JetStream in a temporary folder, and two accounts,
/// ``accountA`` and ``accountB``, each with one user and JetStream enabled (or, in operator mode,
/// the accounts of ``Options/operatorMode``). Servers are started and stopped by PID however the
/// tests end (see ``LoopbackServer``).
final class NATSTestCluster: LoopbackCluster, @unchecked Sendable {
  /// nats-server or libnats is missing: the tests fail with this message.
  struct NotInstalled: Error, CustomStringConvertible {
    var description: String {
      "the NATS tests need nats-server and libnats: apt-get install nats-server libnats-dev (`.ci/run` and scripts/test install them)"
    }
  }

  struct ClusterError: Error, CustomStringConvertible {
    let description: String
  }

  /// A user of one of the cluster's NATS accounts.
  struct User: Sendable {
    let account: String
    let name: String
    let password: String

    var credentials: NATSCredentials { .user(name, password: password) }
  }

  static let accountA = User(account: "A", name: "alice-device", password: "a-secret-7f3c")
  static let accountB = User(account: "B", name: "bob-device", password: "b-secret-91d2")

  /// How the servers differ from the shared cluster's.
  struct Options {
    /// Servers: 3, or 1 (no `cluster` block then).
    var size = 3
    /// The content of each server's `tls { … }` block, or nil for none.
    var tls: String? = nil
    /// The TLS files the readiness check (``waitUntilReady(_:)``) connects with.
    var clientTLS: CloudTLSFiles? = nil
    /// The host name the readiness check expects in the server's certificate (its IP address
    /// when nil).
    var readinessHost: String? = nil
    /// Each account's JetStream file storage (`max_file`) and the server's (`max_file_store`).
    var accountStorage = "2GB"
    var serverStorage = "2GB"
    /// The cluster's name (also its gateway's).
    var name = "tests"
    /// The gateway port of each server, and the gateway ports of every cluster of the
    /// supercluster by name (this one included), or nil for no `gateway` block.
    var gateway: (ports: [Int], clusters: [String: [Int]])? = nil
    /// NKey users (public keys) of ``accountA`` besides its password user.
    var nkeyUsersOfA: [String] = []
    /// How long each server may take to answer with JetStream: a supercluster elects its
    /// JetStream leader across the gateways, and a cluster that lost its quorum elects one again
    /// when the servers return; each took more than 20 s in a loaded CI run.
    var readyWithin = 90
    /// The client ports, then the route ports, of the servers (2 × ``size``), or nil for free
    /// ports found at start: a supercluster takes all its ports in one search, so that no
    /// cluster's search hands out a port another one's configuration already names.
    var ports: [Int]? = nil
    /// Decentralized authentication replacing the accounts A and B: the operator's JWT and its
    /// preloaded accounts (the readiness check signs in as its `readiness` user), or nil.
    var operatorMode: NATSOperatorMode? = nil
    /// The network namespace the servers run in (see ``NetworkNamespace``), and the address
    /// they listen on (there or on this machine).
    var namespace: NetworkNamespace? = nil
    var host = "127.0.0.1"
    /// How many of the last servers are configured but not started (a test starts them, as
    /// servers that join a cluster after the others met).
    var notStarted = 0
  }

  /// The cluster every NATS test shares (a fresh container, so fresh buckets, per test),
  /// started on first use on a thread of its own (see ``onOwnThread(_:)``).
  static func shared() async throws -> NATSTestCluster {
    try await onOwnThread { try sharedCluster.get() }
  }

  private static let sharedCluster = Result { try NATSTestCluster(Options()) }

  /// Starts a cluster (see ``init(_:)``) on a thread of its own, not on the cooperative pool the
  /// tests run on (see ``onOwnThread(_:)``).
  static func started(_ options: Options = Options()) async throws -> NATSTestCluster {
    try await onOwnThread { try NATSTestCluster(options) }
  }

  let folder: URL
  let servers: [LoopbackServer]
  /// The servers' client URLs, in the order of ``servers``.
  private(set) var urls: [String] = []
  let options: Options

  /// Starts the servers and waits until JetStream answers on each. When a server finds its
  /// free port taken by the time it starts (by another test's server or a client's ephemeral
  /// port), the cluster starts again on other free ports, up to 3 times. Tests call
  /// ``started(_:)``, which waits off the cooperative pool.
  private init(_ options: Options) throws {
    self.options = options
    guard let program = LoopbackServer.executable("nats-server"),
      FileManager.default.fileExists(atPath: "/usr/include/nats/nats.h")
    else { throw NotInstalled() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "nats-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    self.folder = folder
    servers = (0..<options.size).map { index in
      let name = options.gateway == nil ? "n\(index)" : "\(options.name)-n\(index)"
      let inNamespace = options.namespace?.exec ?? []
      return LoopbackServer(
        name: name,
        arguments: inNamespace
          + [program, "-c", folder.appendingPathComponent("\(name).conf").path],
        log: folder.appendingPathComponent("\(name).log"))
    }
    LoopbackClusters.register(self)
    for attempt in 1...3 {
      do {
        try start(ports: options.ports ?? LoopbackServer.freePorts(2 * options.size))
        return
      } catch is PortTaken where options.ports == nil && attempt < 3 {
        for server in servers { server.kill9() }
      } catch {
        remove()
        throw error
      }
    }
  }

  /// A server exited at its start because its port was taken.
  struct PortTaken: Error, CustomStringConvertible {
    let server: String
    var description: String { "\(server) exited at its start: its port was taken" }
  }

  /// Writes each server's configuration for `ports` (the client ports, then the route ports),
  /// starts the servers and waits until each is ready.
  private func start(ports: [Int]) throws {
    let size = options.size
    let host = options.host
    let routes = (0..<size).map { "nats-route://\(host):\(ports[size + $0])" }
    urls = (0..<size).map { "nats://\(host):\(ports[$0])" }
    for (index, server) in servers.enumerated() {
      try Self.configuration(
        name: server.name, index: index, client: ports[index], cluster: ports[size + index],
        routes: routes, storage: folder.appendingPathComponent(server.name), options: options
      ).write(toFile: server.arguments.last!, atomically: true, encoding: .utf8)
    }
    let started = Array(servers.dropLast(options.notStarted))
    for server in started { try server.start() }
    try blockUntilReady(started)
  }

  deinit {
    remove()
  }

  func remove() {
    for server in servers { server.kill9() }
    try? FileManager.default.removeItem(at: folder)
  }

  /// One server's configuration: the cluster (of more than one server), JetStream, a payload
  /// limit that fits the largest record, TLS, and the two accounts (or the operator mode). A
  /// bucket reserves its `MaxBytes` (2.5 MiB) on each of its 3 servers against the account's
  /// `max_file` and the server's `max_file_store`, so both allow the few hundred buckets of a
  /// test run (the files themselves stay small).
  private static func configuration(
    name: String, index: Int, client: Int, cluster: Int, routes: [String], storage: URL,
    options: Options
  ) -> String {
    func account(_ user: User) -> String {
      let nkeys = user.account == accountA.account ? options.nkeyUsersOfA : []
      let users =
        [#"{ user: "\#(user.name)", password: "\#(user.password)" }"#]
        + nkeys.map { #"{ nkey: "\#($0)" }"# }
      return """
          \(user.account): {
            jetstream: { max_file: \(options.accountStorage), max_mem: 8MB }
            users: [\(users.joined(separator: ", "))]
          }
        """
    }
    let accounts = """
      accounts {
      \(account(accountA))
      \(account(accountB))
      }
      """
    let clustered =
      routes.count < 2
      ? ""
      : """
      cluster {
        name: \(options.name)
        listen: \(options.host):\(cluster)
        routes: [\(routes.joined(separator: ", "))]
      }
      """
    return """
      server_name: \(name)
      listen: \(options.host):\(client)
      max_payload: 4MB
      jetstream {
        store_dir: "\(storage.path)", max_file_store: \(options.serverStorage), max_memory_store: 32MB
      }
      \(clustered)
      \(options.gateway.map { gateway(options.name, port: $0.ports[index], clusters: $0.clusters) } ?? "")
      \(options.tls.map { "tls { \($0) }" } ?? "")
      \(options.operatorMode?.serverConfiguration ?? accounts)

      """
  }

  /// A `gateway` block: this server's gateway port, and every cluster's gateway URLs.
  private static func gateway(_ name: String, port: Int, clusters: [String: [Int]]) -> String {
    let remotes = clusters.sorted { $0.key < $1.key }.map { cluster, ports in
      let urls = ports.map { "\"nats://127.0.0.1:\($0)\"" }.joined(separator: ", ")
      return "{ name: \(cluster), urls: [\(urls)] }"
    }
    return """
      gateway {
        name: \(name)
        listen: 127.0.0.1:\(port)
        gateways: [\(remotes.joined(separator: ", "))]
      }
      """
  }

  /// Waits (up to ``Options/readyWithin`` seconds) until each server says it is ready and
  /// answers a JetStream account-information request. The readiness request alone could reach
  /// another test's server that holds the port (with the same test users), so the server's own
  /// process must run and its log since this start must say "Server is ready".
  func waitUntilReady(_ only: [LoopbackServer]? = nil) async throws {
    try await onOwnThread { try self.blockUntilReady(only) }
  }

  /// ``waitUntilReady(_:)`` blocking the calling thread.
  private func blockUntilReady(_ only: [LoopbackServer]? = nil) throws {
    var lastError = ""
    for server in only ?? servers {
      let url = urls[servers.firstIndex { $0 === server } ?? 0]
      let ready = pollBlocking(within: .seconds(options.readyWithin)) {
        guard server.isRunning else { return true }
        guard server.logSinceStart.contains("Server is ready") else {
          lastError = "its log does not say it is ready"
          return false
        }
        do {
          try NATSTestClient(
            url: url, user: Self.accountA,
            credsFile: options.operatorMode?.readiness.credsFile.path, tls: options.clientTLS,
            expectedHostname: options.readinessHost
          ).accountInfo()
          return true
        } catch {
          lastError = "\(error)"
          return false
        }
      }
      let log = server.logSinceStart
      if !server.isRunning {
        if log.contains("address already in use") { throw PortTaken(server: server.name) }
        throw ClusterError(
          description: "\(server.name) exited at its start; its log ends: " + log.suffix(600))
      }
      if !ready {
        throw ClusterError(
          description:
            "\(server.name) had no JetStream in \(options.readyWithin) s: \(lastError); its log ends: "
            + log.suffix(600))
      }
    }
  }

  /// A device's configuration on this cluster (all servers, or `only` some).
  func configuration(
    container: String, account: String = "default", user: User = accountA,
    only: [LoopbackServer]? = nil
  ) -> NATSConfiguration {
    let chosen = (only ?? servers).compactMap { server in
      servers.firstIndex { $0 === server }.map { urls[$0] }
    }
    return NATSConfiguration(
      servers: chosen, container: container, account: account, credentials: user.credentials,
      replicas: servers.count, requestTimeout: 5)
  }
}

extension NATSTestCluster {
  /// A cluster of its own of one server, with room for a few buckets of 1 replica.
  static func singleServer() async throws -> NATSTestCluster {
    var options = Options()
    (options.size, options.accountStorage, options.serverStorage) = (1, "64MB", "256MB")
    return try await started(options)
  }
}

/// Runs `body` with the store of a new device of `configuration`, then waits until the device
/// has ended (as its process would end once its last save gave up or was done).
///
/// - Returns: Whether the device ended within the polling helper's time.
func runDeviceToItsEnd(
  _ configuration: NATSConfiguration, _ body: (NSUbiquitousKeyValueStore) throws -> Void
) async throws -> Bool {
  weak var ended: NATSCloudBackend?
  do {
    let backend = try NATSCloudBackend(configuration: configuration)
    ended = backend
    try body(NSUbiquitousKeyValueStore(backend: backend))
  }
  return await poll { ended == nil }
}

/// A fresh container name for one test on the shared cluster.
func freshNATSContainer() -> String {
  "tests-\(UUID().uuidString.prefix(12))"
}

/// How the servers refused a device made by `make` at its launch: its last error while it says
/// `refused` (the device is made all the same, and keeps trying), or else its state, or what
/// `make` threw.
func refusalAtLaunch(_ make: () throws -> NATSCloudBackend) -> String {
  do {
    let status = try make().syncStatus
    return status.connection == .refused ? status.lastError ?? "no error" : status.summary
  } catch {
    return "threw \(error)"
  }
}
