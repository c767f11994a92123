import Foundation
import ObservableDefaultsCore
import ObservableDefaultsEtcd
import TestSupport
import Testing

/// `settings-editor cloud status`, run as the built program with the environment choosing the
/// backend of its cloud store.
@Suite struct CloudStatusVerbTests {
  func run(_ arguments: [String], environment: [String: String]) throws -> (
    status: Int32, output: String
  ) {
    let folder = try TemporaryFolder(prefix: "cloud-status")
    defer { folder.remove() }
    let variables = programEnvironment(in: folder, adding: environment)
    let result = try ChildProcess.run(EditorProcess.binary, arguments, environment: variables)
    return (result.status, result.output)
  }

  @Test func withoutEtcdTheEmbeddedContainerIsReported() throws {
    let (status, output) = try run(["cloud", "status"], environment: [:])
    #expect(status == 0)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.first == "backend: embedded")
    #expect(
      lines.dropFirst().first?.hasSuffix(
        "/ObservableDefaults/CloudContainers/settings-editor/default/store.plist") == true)
    #expect(
      Array(lines.dropFirst(2).prefix(3)) == ["account: default", "state: synced", "pending: 0"])
    #expect(lines.last?.hasPrefix("last sync: 20") == true, "\(lines)")
  }

  @Test func anUnreachableEtcdIsReportedOfflineWithItsError() throws {
    let (status, output) = try run(
      ["cloud", "status"],
      environment: [
        "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": "http://127.0.0.1:1",
        "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "alice",
      ])
    #expect(status == 69)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.prefix(6)) == [
        "backend: etcd", "endpoint: http://127.0.0.1:1", "account: alice", "state: offline",
        "pending: 0",
        "last sync: never",
      ])
    #expect(
      lines.last?.hasPrefix("error: etcd: no member answered: http://127.0.0.1:1 is unreachable")
        == true)
  }

  /// The status of a program's container reports the program's device journal: the writes
  /// it keeps while offline, though the program (here: this test process) holds the file. The
  /// pending count has one source: `pending:` is the journal's count, and the journal line
  /// gives no other.
  @Test func aProgramsJournalIsReportedWithItsPendingWrites() throws {
    let folder = try TemporaryFolder(prefix: "cloud-status-journal")
    defer { folder.remove() }
    do {
      let state = folder.file("state")
      let program = try EtcdCloudBackend(
        configuration: EtcdConfiguration(
          endpoints: ["http://127.0.0.1:1"], container: "com.example.app", account: "alice",
          requestTimeout: 0.5,
          stateDirectory: state.appendingPathComponent("ObservableDefaults/etcd")))
      try program.save(
        ["k": CloudRecord(value: "v", timestamp: CloudTimestamp(time: 1, counter: 0, device: "d"))])
      #expect(program.syncStatus.summary == "offline, 1 pending")
      let (status, output) = try run(
        ["cloud", "status", "com.example.app"],
        environment: [
          "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": "http://127.0.0.1:1",
          "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "alice", "XDG_STATE_HOME": state.path,
        ])
      #expect(status == 69)
      let lines = output.split(separator: "\n").map(String.init)
      #expect(lines.contains("state: offline"))
      #expect(lines.contains("pending: 1"), "\(lines)")
      #expect(
        lines.contains(
          "journal: \(state.path)/ObservableDefaults/etcd/com.example.app/alice.plist (held by a running program)"
        ), "\(lines)")
    }
  }

  /// A configuration the engine cannot use is the status (exit 78), not the embedded container
  /// a program's shared store falls back to.
  @Test func anUnusableConfigurationIsReportedWithExit78() throws {
    let folder = try TemporaryFolder(prefix: "cloud-status-unusable")
    defer { folder.remove() }
    let passwords = folder.file("nats-password")
    try "user = alice\npassword = secret\n".write(to: passwords, atomically: true, encoding: .utf8)
    chmod(passwords.path, 0o644)
    let (status, output) = try run(
      ["cloud", "status"],
      environment: [
        "OBSERVABLE_DEFAULTS_NATS_SERVERS": "nats://127.0.0.1:1",
        "OBSERVABLE_DEFAULTS_NATS_PASSWORD_FILE": passwords.path,
      ])
    #expect(status == 78)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(Array(lines.prefix(2)) == ["backend: nats", "state: unusable configuration"])
    #expect(lines.last?.contains("must be readable by its owner only") == true, "\(lines)")
    #expect(!output.contains("secret"))
  }

  @Test func theVerbHasHelpAndRefusesOtherWords() throws {
    #expect(
      try run(["help", "cloud"], environment: [:]).output.hasPrefix(
        "Usage: settings-editor cloud status"))
    #expect(try run(["cloud", "start"], environment: [:]).status == 64)
  }
}
