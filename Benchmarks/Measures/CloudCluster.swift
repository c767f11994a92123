import Foundation
import ObservableDefaults
import ObservableDefaultsNATS

/// A loopback cluster of 3 servers of one sync engine, started in the workspace by its script
/// (`scripts/etcd-cluster` or `scripts/nats-cluster`), and the devices the cloud measures make
/// on it.
///
/// ``stop()`` ends the script's standard input, and the script kills its servers by PID. When
/// this program ends any other way (``abort(_:)``, a signal, a crash), the kernel closes the
/// pipe, the script reads the end of its input all the same and stops them too; a script
/// stopped by SIGINT, SIGTERM or SIGHUP kills them as well.
final class CloudCluster {
  /// The sync engines with a cluster script.
  enum Engine: String, CaseIterable {
    case etcd, nats

    /// The engine's name in the tables.
    var name: String { self == .etcd ? "etcd" : "NATS" }
    /// What its servers are called.
    var servers: String { self == .etcd ? "members" : "servers" }
    /// The script in `scripts/` and the word before the URLs in its first line.
    fileprivate var script: (name: String, announces: String, pidPrefix: String) {
      self == .etcd
        ? ("etcd-cluster", "endpoints", "m") : ("nats-cluster", "servers", "s")
    }
  }

  /// The `scripts` folder of this package.
  static let scripts = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts")

  let engine: Engine
  /// The servers' client URLs, the i-th served by the i-th of ``serverPIDs``.
  let urls: [String]
  /// The servers' process IDs (from the `<m|s><i>.pid` files the script writes).
  let serverPIDs: [Int32]
  /// The folder the script keeps its servers' data, logs and (NATS) password file in.
  private let folder: URL
  private let process: Process
  private var isStopped = false

  /// Starts a 3-server cluster of `engine` in `workspace` and waits until it is healthy.
  init(_ engine: Engine, in workspace: Workspace) {
    self.engine = engine
    let script = engine.script
    folder = workspace.folder.appendingPathComponent(script.name)
    process = Process()
    process.executableURL = Self.scripts.appendingPathComponent(script.name)
    process.arguments = ["3", folder.path]
    process.standardInput = Pipe()
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch {
      abort("cannot start scripts/\(script.name): \(error) (see scripts/packages.sh)")
    }
    let words = Self.firstLine(of: output).split(separator: " ")
    guard words.count == 2, words[0] == script.announces else {
      abort("scripts/\(script.name) did not start")
    }
    urls = words[1].split(separator: ",").map(String.init)
    let folder = folder
    serverPIDs = urls.indices.map { index in
      let file = folder.appendingPathComponent("\(script.pidPrefix)\(index).pid")
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        abort("scripts/\(script.name) wrote no \(file.lastPathComponent)")
      }
      return pid
    }
  }

  deinit { stop() }

  /// The TCP port each server takes devices on, in the order of ``urls``.
  var clientPorts: [Int] {
    urls.map { url in Int(url.split(separator: ":").last ?? "") ?? 0 }
  }

  /// A new device of the store named `group` (devices of one group share one store: an etcd
  /// root, a NATS container), listing server `first` first (libnats shuffles the list).
  func device(first: Int, group: String) throws -> any CloudBackend {
    let servers = Array(urls[first...] + urls[..<first])
    switch engine {
    case .etcd:
      return try EtcdCloudBackend(
        configuration: EtcdConfiguration(endpoints: servers, root: group, container: "bench"))
    case .nats:
      // NATS has no key prefix: the group names the container. One server: libnats shuffles a
      // list, so the devices would not be on the servers the measure names (it learns the
      // others from the one it reaches, for failover).
      let password = folder.appendingPathComponent("demo.password").path
      return try NATSCloudBackend(
        configuration: NATSConfiguration(
          servers: [urls[first]], container: "bench-" + group, account: "demo",
          credentials: try .passwordFile(password)))
    }
  }

  /// Ends the script's input and waits for it: it kills its servers by PID and exits.
  func stop() {
    guard !isStopped else { return }
    isStopped = true
    try? (process.standardInput as? Pipe)?.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// The script's first line of output, without the newline.
  private static func firstLine(of output: Pipe) -> String {
    var line = Data()
    while true {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte == Data("\n".utf8) { break }
      line.append(byte)
    }
    return String(decoding: line, as: UTF8.self)
  }
}
