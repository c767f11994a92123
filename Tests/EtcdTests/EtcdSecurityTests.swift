import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// Per-account users and roles, token renewal, and https with a CA and client certificates, on
/// clusters of their own.
@Suite(.serialized) struct EtcdSecurityTests {
  /// Runs a shell command (etcdctl, openssl) in `folder`; fails the test on a non-zero exit.
  @discardableResult
  func shell(_ script: String, in folder: URL? = nil) throws -> String {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = folder
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw EtcdTestCluster.ClusterError(description: "`\(script)` failed: \(text)")
    }
    return text
  }

  /// A one-member cluster with authentication on: `root`, and users `alice` and `bob`, each
  /// allowed to read and write only its own account's prefix of container `app` under root
  /// `secure` (the commands of "Deploying etcd" in the DocC article *Choosing and deploying a
  /// sync engine*).
  func clusterWithAccounts(extraArguments: [String] = []) async throws -> EtcdTestCluster {
    let cluster = try await EtcdTestCluster.started(size: 1, extraArguments: extraArguments)
    let etcdctl = EtcdTestCluster.etcdctl([cluster.endpoints[0]])
    var script =
      "\(etcdctl) user add root --new-user-password=root-secret && \(etcdctl) user grant-role root root"
    for account in ["alice", "bob"] {
      script += " && \(etcdctl) role add \(account)"
      script +=
        " && \(etcdctl) role grant-permission \(account) --prefix=true readwrite /secure/app/\(account)/"
      script += " && \(etcdctl) user add \(account) --new-user-password=\(account)-secret"
      script += " && \(etcdctl) user grant-role \(account) \(account)"
    }
    try shell(script + " && \(etcdctl) auth enable")
    return cluster
  }

  /// A device of `account`; `heartbeatInterval` 0 turns off its checks, so only the test's own
  /// requests use (and renew) its token.
  func device(
    _ cluster: EtcdTestCluster, account: String, user: String, password: String,
    heartbeatInterval: TimeInterval = 2
  ) throws -> EtcdCloudBackend {
    try EtcdCloudBackend(
      configuration: EtcdConfiguration(
        endpoints: cluster.endpoints, root: "secure", container: "app", account: account,
        credentials: EtcdCredentials(user: user, password: password), requestTimeout: 2,
        heartbeatInterval: heartbeatInterval))
  }

  func record(_ value: String) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: 1, counter: 0, device: "d"))
  }

  @Test func twoAccountsAreIsolatedByRoles() async throws {
    let cluster = try await clusterWithAccounts()
    defer { cluster.remove() }
    let alice = try device(cluster, account: "alice", user: "alice", password: "alice-secret")
    let bob = try device(cluster, account: "bob", user: "bob", password: "bob-secret")
    try alice.save(["theme": record("dark")])
    try bob.save(["theme": record("light")])
    #expect(try alice.load().records.mapValues { $0.value as? String } == ["theme": "dark"])
    #expect(try bob.load().records.mapValues { $0.value as? String } == ["theme": "light"])

    // Alice's credentials on Bob's account: refused both ways, clearly, without the password.
    let intruder = try device(cluster, account: "bob", user: "alice", password: "alice-secret")
    let readError = try #require(throws: EtcdError.self) { try intruder.load() }
    #expect(readError.kind == .permissionDenied)
    #expect(
      readError.description.hasPrefix("etcd: permission denied: etcdserver: permission denied"))
    let writeError = try #require(throws: EtcdError.self) {
      try intruder.save(["theme": record("hacked")])
    }
    #expect(writeError.kind == .permissionDenied)
    #expect(try bob.load().records.mapValues { $0.value as? String } == ["theme": "light"])
    #expect(!"\(readError) \(writeError) \(intruder.syncStatus)".contains("alice-secret"))
  }

  @Test func aWrongPasswordIsAnAuthenticationErrorThatDoesNotShowIt() async throws {
    let cluster = try await clusterWithAccounts()
    defer { cluster.remove() }
    let wrong = try device(cluster, account: "alice", user: "alice", password: "not-the-password")
    let error = try #require(throws: EtcdError.self) { try wrong.load() }
    #expect(error.kind == .authenticationFailed)
    #expect(wrong.syncStatus.connection == .refused)
    #expect(wrong.syncStatus.summary == "refused")
    #expect(error.description.contains("etcd user alice (from code) was refused"))
    #expect(!error.description.contains("not-the-password"))
  }

  @Test func anExpiredTokenIsRenewed() async throws {
    // Simple tokens expire after --auth-token-ttl seconds without use.
    let cluster = try await clusterWithAccounts(extraArguments: ["--auth-token-ttl", "1"])
    defer { cluster.remove() }
    // Without heartbeats: one every 2 s would find the token expired too and renew it.
    let alice = try device(
      cluster, account: "alice", user: "alice", password: "alice-secret", heartbeatInterval: 0)
    try alice.save(["k": record("v")])
    #expect(alice.client.authenticationCount == 1)
    // The condition waited for is time itself: the token's TTL (1 s, checked each second) passing
    // with no request.
    let expired = Date().addingTimeInterval(3)
    #expect(await poll { Date() >= expired })
    #expect(try alice.load().records["k"]?.value as? String == "v")
    #expect(alice.syncStatus.connection == .connected)
    #expect(alice.client.authenticationCount == 2)
  }

  @Test func httpsWithACertificateAuthorityAndClientCertificates() async throws {
    try await withTemporaryFolder { folder in
      let subject = "-subj /CN=127.0.0.1"
      let key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
      try shell(
        """
        openssl req -x509 \(key) -keyout ca.key -out ca.pem -days 1 -subj /CN=test-ca && \
        openssl req \(key) -keyout server.key -out server.csr \(subject) && \
        printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext && \
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile san.ext && \
        openssl req \(key) -keyout client.key -out client.csr -subj /CN=device && \
        openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 1
        """, in: folder.url)
      let path = { (name: String) in folder.file(name).path }
      let cluster = try await EtcdTestCluster.started(
        size: 1, tls: (certificate: path("server.pem"), key: path("server.key"), ca: path("ca.pem"))
      )
      defer { cluster.remove() }
      let tls = CloudTLSFiles(
        caFile: path("ca.pem"), certificateFile: path("client.pem"), keyFile: path("client.key"))
      try await cluster.waitUntilHealthy(tls: tls)
      #expect(cluster.endpoints[0].hasPrefix("https://127.0.0.1:"))

      func device(_ tls: CloudTLSFiles) throws -> EtcdCloudBackend {
        try EtcdCloudBackend(
          configuration: EtcdConfiguration(
            endpoints: cluster.endpoints, root: "tls", container: "app", tls: tls,
            requestTimeout: 10, connectTimeout: 10
          ))
      }
      let trusted = try device(tls)
      try trusted.save(["k": record("over https")])
      #expect(try device(tls).load().records["k"]?.value as? String == "over https")

      let withoutClientCertificate = try device(CloudTLSFiles(caFile: path("ca.pem")))
      #expect(try withoutClientCertificate.load().records.isEmpty)
      #expect(withoutClientCertificate.syncStatus.connection == .offline)
      // With TLS 1.3 the member refuses a client without a certificate after the handshake.
      let missing = withoutClientCertificate.syncStatus.lastError ?? ""
      #expect(
        missing.contains(
          "failed: the server closed the connection after the TLS handshake; most likely it requires a client certificate, and none is configured (cert-file and key-file)"
        ), "\(missing)")
      let withoutCA = try device(
        CloudTLSFiles(certificateFile: path("client.pem"), keyFile: path("client.key")))
      #expect(try withoutCA.load().records.isEmpty)
      #expect(withoutCA.syncStatus.connection == .offline)
      // The error names the member tried last; which one that is depends on the failover's order.
      // (Generous time limits: on a loaded machine a handshake can outlast the default 1 s, and
      // the error would then be a timeout instead of the refusal under test.)
      let lastError = withoutCA.syncStatus.lastError ?? ""
      #expect(
        cluster.endpoints.contains { lastError.contains("TLS with \($0) failed") }, "\(lastError)")
    }
  }
}
