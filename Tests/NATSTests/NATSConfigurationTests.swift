import CNATS
import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS
import TestSupport
import Testing

/// Choosing NATS without code changes (`OBSERVABLE_DEFAULTS_NATS_*`, the `nats-…` keys of
/// `cloud.conf`), secret files of mode `0600`, and credentials that never show.
@Suite struct NATSConfigurationTests {
  /// Writes `text` to `name` in `folder` with `mode`.
  func write(_ text: String, to name: String, in folder: TemporaryFolder, mode: mode_t = 0o600)
    throws -> String
  {
    let file = folder.file(name)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: file, atomically: true, encoding: .utf8)
    chmod(file.path, mode)
    return file.path
  }

  @Test func withoutServersNoConfiguration() async throws {
    try await withTemporaryFolder { folder in
      let configuration = try NATSConfiguration.fromEnvironment(
        container: "app", environment: ["XDG_CONFIG_HOME": folder.url.path])
      #expect(configuration == nil)
    }
  }

  @Test func theEnvironmentNamesServersAccountUserAndTLSFiles() throws {
    let configuration = try #require(
      try NATSConfiguration.fromEnvironment(
        container: "app",
        environment: [
          "OBSERVABLE_DEFAULTS_NATS_SERVERS": "tls://10.0.0.2:4222, tls://10.0.0.3:4222",
          "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "alice",
          "OBSERVABLE_DEFAULTS_NATS_USER": "alice-laptop",
          "OBSERVABLE_DEFAULTS_NATS_PASSWORD": "s3cret-in-env",
          "OBSERVABLE_DEFAULTS_NATS_CA_FILE": "/etc/nats/ca.pem",
          "OBSERVABLE_DEFAULTS_NATS_CERT_FILE": "/etc/nats/client.pem",
          "OBSERVABLE_DEFAULTS_NATS_KEY_FILE": "/etc/nats/client-key.pem",
          "OBSERVABLE_DEFAULTS_NATS_REPLICAS": "5", "XDG_CONFIG_HOME": "/nonexistent",
          "XDG_STATE_HOME": "/home/alice/.state",
        ]))
    #expect(configuration.servers == ["tls://10.0.0.2:4222", "tls://10.0.0.3:4222"])
    #expect(configuration.container == "app")
    #expect(configuration.account == "alice")
    #expect(configuration.replicas == 5)
    #expect(configuration.requestTimeout == 3)
    #expect(configuration.stateDirectory?.path == "/home/alice/.state/ObservableDefaults/nats")
    #expect(
      configuration.tls
        == CloudTLSFiles(
          caFile: "/etc/nats/ca.pem", certificateFile: "/etc/nats/client.pem",
          keyFile: "/etc/nats/client-key.pem"))
    let credentials = try #require(configuration.credentials)
    let expected =
      "NATS user alice-laptop (from environment (OBSERVABLE_DEFAULTS_NATS_USER, OBSERVABLE_DEFAULTS_NATS_PASSWORD))"
    #expect("\(credentials)" == expected)
    #expect(String(reflecting: credentials) == expected)
    var dumped = ""
    dump(configuration, to: &dumped)
    #expect(!dumped.contains("s3cret-in-env"))
  }

  @Test func theFileIsReadAndTheEnvironmentWinsOverIt() async throws {
    try await withTemporaryFolder { folder in
      let password = try write(
        "user = bob-phone\npassword = hunter2-file\n", to: "nats-password", in: folder)
      _ = try write(
        """
        # the NATS service of example.com
        nats-servers = nats://10.0.0.2:4222
        account = bob
        nats-password-file = \(password)
        endpoints = http://ignored-by-nats:2379
        """, to: "config/ObservableDefaults/cloud.conf", in: folder, mode: 0o644)
      let environment = ["XDG_CONFIG_HOME": folder.file("config").path]
      let fromFile = try #require(
        try NATSConfiguration.fromEnvironment(container: "app", environment: environment))
      #expect(fromFile.servers == ["nats://10.0.0.2:4222"])
      #expect(fromFile.account == "bob")
      #expect(
        "\(try #require(fromFile.credentials))" == "NATS user bob-phone (from file \(password))")
      let overridden = try #require(
        try NATSConfiguration.fromEnvironment(
          container: "app",
          environment: environment.merging([
            "OBSERVABLE_DEFAULTS_NATS_SERVERS": "nats://10.9.9.9:4222",
            "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "carol",
          ]) { $1 }))
      #expect(overridden.servers == ["nats://10.9.9.9:4222"])
      #expect(overridden.account == "carol")
    }
  }

  @Test func secretFilesReadableByOthersAreRefusedNamingTheFix() async throws {
    try await withTemporaryFolder { folder in
      let password = try write(
        "user = u\npassword = p-never-shown\n", to: "password", in: folder, mode: 0o644)
      let creds = try write("-----BEGIN NATS USER JWT-----", to: "u.creds", in: folder, mode: 0o640)
      let seed = try write("SUAEXAMPLE", to: "seed", in: folder, mode: 0o604)
      let cases: [(String, String, String)] = [
        ("nats-password-file", password, "the NATS password file \(password) has mode 644"),
        ("nats-creds-file", creds, "the NATS credentials file \(creds) has mode 640"),
        ("nats-nkey-seed-file", seed, "the NATS NKey seed file \(seed) has mode 604"),
      ]
      for (key, path, start) in cases {
        var lines = "nats-servers = nats://127.0.0.1:4222\n\(key) = \(path)\n"
        if key == "nats-nkey-seed-file" { lines += "nats-nkey = UEXAMPLE\n" }
        let config = try write(lines, to: "\(key)/ObservableDefaults/cloud.conf", in: folder)
        let environment = [
          "XDG_CONFIG_HOME": URL(fileURLWithPath: config).deletingLastPathComponent()
            .deletingLastPathComponent().path
        ]
        #expect {
          try NATSConfiguration.fromEnvironment(container: "app", environment: environment)
        } throws: { error in
          "\(error)" == start + "; it must be readable by its owner only (chmod 600 \(path))"
        }
      }
    }
  }

  @Test func anNKeyWithoutItsSeedAndBadReplicasAreRefused() throws {
    let base = [
      "XDG_CONFIG_HOME": "/nonexistent", "OBSERVABLE_DEFAULTS_NATS_SERVERS": "nats://h:4222",
    ]
    #expect {
      try NATSConfiguration.fromEnvironment(
        environment: base.merging(["OBSERVABLE_DEFAULTS_NATS_NKEY": "UEXAMPLE"]) { $1 })
    } throws: { error in
      "\(error)"
        == "the NATS NKey UEXAMPLE needs its seed file (nats-nkey-seed-file or OBSERVABLE_DEFAULTS_NATS_NKEY_SEED_FILE)"
    }
    #expect {
      try NATSConfiguration.fromEnvironment(
        environment: base.merging(["OBSERVABLE_DEFAULTS_NATS_REPLICAS": "7"]) { $1 })
    } throws: { error in
      "\(error)" == "nats-replicas (OBSERVABLE_DEFAULTS_NATS_REPLICAS) is \"7\"; use 1 to 5"
    }
  }

  @Test func aWrongPasswordIsRefusedWithoutShowingIt() async throws {
    let cluster = try await NATSTestCluster.shared()
    var configuration = cluster.configuration(container: freshNATSContainer())
    configuration.credentials = .user(NATSTestCluster.accountA.name, password: "wrong-pass-4471")
    configuration.servers = ["nats://alice:url-secret-99@" + cluster.urls[0].dropFirst(7)]
    let server = "nats://" + cluster.urls[0].dropFirst(7)
    #expect(
      refusalAtLaunch { try NATSCloudBackend(configuration: configuration) }
        == "nats: connecting to \(server): Authorization Violation")
    // A program's store does not fall back to its embedded container and say connected:
    // `cloud status` says refused, with the reason, and exits 77 (EX_NOPERM).
    let user = NATSTestCluster.User(
      account: "A", name: NATSTestCluster.accountA.name, password: "wrong-pass-4471")
    let (status, output) = try cloudStatus(servers: [cluster.urls[0]], user: user)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(status == 77)
    #expect(
      Array(lines.prefix(4)) == [
        "backend: nats", "endpoint: -", "account: default", "state: refused",
      ])
    #expect(lines.last == "error: nats: connecting to \(cluster.urls[0]): Authorization Violation")
    #expect(!output.contains(user.password))
  }

  @Test func withoutAServerTheDeviceConnectsInTheBackgroundAndReportsOffline() throws {
    var configuration = NATSConfiguration(
      servers: ["nats://127.0.0.1:\(try LoopbackServer.freePorts(1)[0])"], container: "app",
      requestTimeout: 0.5)
    let device = try NATSCloudBackend(configuration: configuration)
    // A load without a server answers from the device's (empty) local copy.
    #expect(try device.load().records.isEmpty)
    #expect(device.syncStatus.connection == .offline)
    #expect(device.syncStatus.lastError == "nats: opening the bucket app-default: Timeout")
    #expect(
      throws: NATSError(kind: .unreachable, message: "opening the bucket app-default: Timeout")
    ) {
      try device.save([
        "k": CloudRecord(value: "v", timestamp: CloudTimestamp(time: 1, counter: 0, device: "d"))
      ])
    }
    #expect(device.syncStatus.pendingCount == 0, "the store that handed the write counts it")
    configuration.servers = []
    #expect {
      try NATSCloudBackend(configuration: configuration)
    } throws: { error in
      "\(error)" == "the NATS backend needs at least one server (OBSERVABLE_DEFAULTS_NATS_SERVERS)"
    }
  }

  @Test func theStatusNamesTheServerInUseAndTheAccount() async throws {
    let cluster = try await NATSTestCluster.shared()
    let device = try NATSCloudBackend(
      configuration: cluster.configuration(container: freshNATSContainer(), account: "alice"))
    _ = try device.load()
    let status = device.syncStatus
    #expect(status.backend == "nats")
    #expect(status.account == "alice")
    #expect(status.connection == .connected)
    #expect(status.pendingCount == 0)
    #expect(status.lastError == nil)
    #expect(status.lastSync != nil)
    #expect(cluster.urls.contains(status.endpoint ?? ""))
  }
}
