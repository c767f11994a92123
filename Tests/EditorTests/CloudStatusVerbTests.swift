import Foundation
import Testing

/// `settings-editor cloud status`, run as the built program with the environment choosing the
/// backend of its cloud store.
@Suite struct CloudStatusVerbTests {
  func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloud-status-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let process = Process()
    let output = Pipe()
    process.executableURL = EditorProcess.binary
    process.arguments = arguments
    var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OBSERVABLE_DEFAULTS_") }
    for name in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"] { base[name] = folder.path + "/" + name }
    process.environment = base.merging(environment) { $1 }
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func withoutEtcdTheEmbeddedContainerIsReported() throws {
    let (status, output) = try run(["cloud", "status"], environment: [:])
    #expect(status == 0)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.first == "backend: embedded")
    #expect(lines.dropFirst().first?.hasSuffix("/ObservableDefaults/CloudContainers/settings-editor/default/store.plist") == true)
    #expect(Array(lines.dropFirst(2)) == ["account: default", "state: connected", "pending: 0", "last sync: never"])
  }

  @Test func anUnreachableEtcdIsReportedOfflineWithItsError() throws {
    let (status, output) = try run(
      ["cloud", "status"],
      environment: ["OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": "http://127.0.0.1:1", "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT": "alice"])
    #expect(status == 0)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.prefix(6)) == [
        "backend: etcd", "endpoint: http://127.0.0.1:1", "account: alice", "state: offline", "pending: 0",
        "last sync: never",
      ])
    #expect(lines.last?.hasPrefix("error: etcd: no member answered: http://127.0.0.1:1 is unreachable") == true)
  }

  @Test func theVerbHasHelpAndRefusesOtherWords() throws {
    #expect(try run(["help", "cloud"], environment: [:]).output.hasPrefix("Usage: settings-editor cloud status"))
    #expect(try run(["cloud", "start"], environment: [:]).status == 64)
  }
}
