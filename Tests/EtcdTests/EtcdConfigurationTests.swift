import Foundation
import ObservableDefaultsCore
import ObservableDefaultsEtcd
import TestSupport
import Testing

/// Choosing etcd without code changes: environment variables, `cloud.conf` under
/// `$XDG_CONFIG_HOME`, credentials from a `0600` file or the environment.
@Suite struct EtcdConfigurationTests {
  @Test func withoutEndpointsTheEmbeddedBackendStays() async throws {
    try await withTemporaryFolder { folder in
      let configuration = try EtcdConfiguration.fromEnvironment(
        container: "app",
        environment: ["XDG_CONFIG_HOME": folder.url.path, "HOME": folder.url.path])
      #expect(configuration == nil)
    }
  }

  @Test func theEnvironmentNamesEndpointsAccountRootAndTLSFiles() throws {
    let configuration = try #require(
      try EtcdConfiguration.fromEnvironment(
        container: "app",
        environment: [
          "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": "https://10.0.0.2:2379, https://10.0.0.3:2379",
          "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "alice", "OBSERVABLE_DEFAULTS_ETCD_ROOT": "prefs",
          "OBSERVABLE_DEFAULTS_ETCD_CA_FILE": "/etc/etcd/ca.pem",
          "OBSERVABLE_DEFAULTS_ETCD_USER": "alice",
          "OBSERVABLE_DEFAULTS_ETCD_PASSWORD": "secret", "XDG_STATE_HOME": "/state",
          "XDG_CONFIG_HOME": "/nonexistent",
        ]))
    #expect(configuration.endpoints == ["https://10.0.0.2:2379", "https://10.0.0.3:2379"])
    #expect(configuration.account == "alice")
    #expect(configuration.root == "prefs")
    #expect(configuration.container == "app")
    #expect(configuration.tls == CloudTLSFiles(caFile: "/etc/etcd/ca.pem"))
    #expect(configuration.stateDirectory?.path == "/state/ObservableDefaults/etcd")
    let credentials = try #require(configuration.credentials)
    #expect(credentials.user == "alice")
    #expect(
      "\(credentials)"
        == "etcd user alice (from environment (OBSERVABLE_DEFAULTS_ETCD_USER, OBSERVABLE_DEFAULTS_ETCD_PASSWORD))"
    )
  }

  @Test func theConfigurationFileIsReadAndTheEnvironmentWinsOverIt() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("config/ObservableDefaults/cloud.conf")
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      let credentials = folder.file("credentials")
      try "user = bob\npassword = hunter2\n".write(
        to: credentials, atomically: true, encoding: .utf8)
      chmod(credentials.path, 0o600)
      try """
      # the etcd cluster of this machine's user
      endpoints = http://127.0.0.1:2379
      account = bob
      credentials-file = \(credentials.path)
      state-directory = /var/tmp/od
      """.write(to: file, atomically: true, encoding: .utf8)
      let environment = ["XDG_CONFIG_HOME": folder.file("config").path]
      let fromFile = try #require(
        try EtcdConfiguration.fromEnvironment(container: "app", environment: environment))
      #expect(CloudConfigurationFile.url(environment: environment) == file)
      #expect(fromFile.endpoints == ["http://127.0.0.1:2379"])
      #expect(fromFile.account == "bob")
      #expect(fromFile.stateDirectory?.path == "/var/tmp/od")
      #expect(
        "\(try #require(fromFile.credentials))" == "etcd user bob (from file \(credentials.path))")
      let overridden = try #require(
        try EtcdConfiguration.fromEnvironment(
          container: "app",
          environment: environment.merging(["OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "carol"]) { $1 }))
      #expect(overridden.account == "carol")
    }
  }

  @Test func aCredentialsFileReadableByOthersIsRefused() async throws {
    try await withTemporaryFolder { folder in
      let credentials = folder.file("credentials")
      try "user = bob\npassword = hunter2\n".write(
        to: credentials, atomically: true, encoding: .utf8)
      chmod(credentials.path, 0o644)
      let error = try #require(throws: EtcdConfigurationError.self) {
        try EtcdCredentials.read(fromFile: credentials.path)
      }
      #expect(
        error.message
          == "the etcd credentials file \(credentials.path) has mode 644; it must be readable by its owner only (chmod 600 \(credentials.path))"
      )
      #expect(!error.message.contains("hunter2"))
      chmod(credentials.path, 0o600)
      #expect(try EtcdCredentials.read(fromFile: credentials.path).user == "bob")
      try "user = bob\n".write(to: credentials, atomically: true, encoding: .utf8)
      chmod(credentials.path, 0o600)
      #expect(throws: EtcdConfigurationError.self) {
        try EtcdCredentials.read(fromFile: credentials.path)
      }
    }
  }
}
