import Foundation
import TestSupport
import Testing

/// An app that depends on ObservableDefaults with the package traits off (`traits: []`) builds
/// without libcurl's or libnats' headers, holds no engine symbols, and its shared cloud store is
/// the embedded container even when the environment names etcd endpoints: Core names no engine,
/// and only the umbrella's traits bring one in.
@Suite struct LinkageTests {
  static let packageFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The headers and pkg-config file of the engines' C libraries, hidden from the build.
  static let hiddenFolders = ["/usr/include/x86_64-linux-gnu/curl", "/usr/include/nats"]
  static let hiddenFiles = [
    "/usr/include/nats.h", "/usr/lib/x86_64-linux-gnu/pkgconfig/libnats.pc",
  ]

  /// The app: a settings object and the shared cloud store's backend.
  static let manifest = """
    // swift-tools-version: 6.2
    import PackageDescription

    let package = Package(
      name: "linkage",
      dependencies: [.package(path: "\(packageFolder.path)", traits: [])],
      targets: [
        .executableTarget(
          name: "app", dependencies: [.product(name: "ObservableDefaults", package: "\(packageFolder.lastPathComponent)")])
      ]
    )
    """
  static let main = """
    import ObservableDefaults

    @ObservableDefaults(suiteName: "linkage")
    final class Settings {
      var name = "x"
    }

    print(Settings().name, NSUbiquitousKeyValueStore.default.syncStatus.backend)
    """

  /// `swift build` of the app in a private mount namespace where the engines' headers are empty
  /// folders and their pkg-config file is empty (needs root, as CI and these tests run).
  /// Its temporary files (SwiftPM's lock files) go to `temporaryFiles` (`TMPDIR`).
  func buildWithoutEngineHeaders(in folder: URL, temporaryFiles: String) throws
    -> ChildProcess.Result
  {
    let hide =
      Self.hiddenFolders.filter { FileManager.default.fileExists(atPath: $0) }
      .map { "mount -t tmpfs none \($0)" }
      + Self.hiddenFiles.filter { FileManager.default.fileExists(atPath: $0) }
      .map { "mount --bind /dev/null \($0)" }
    let script = (hide + ["test ! -e /usr/include/nats/nats.h", "exec swift build"])
      .joined(separator: " && ")
    return try ChildProcess.runCommand(
      "unshare", ["--mount", "--propagation", "private", "sh", "-c", script],
      environment: ["OBSERVABLE_DEFAULTS_SWIFT_SYNTAX": nil, "TMPDIR": temporaryFiles],
      in: folder)
  }

  @Test func anAppWithTheTraitsOffHasNoEngine() throws {
    #expect(getuid() == 0, "the linkage check hides headers in a mount namespace: run as root")
    let temporary = try TemporaryFolder(prefix: "linkage")
    let folder = temporary.file("linkage")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Sources/app"), withIntermediateDirectories: true)
    try Data(Self.manifest.utf8).write(to: folder.appendingPathComponent("Package.swift"))
    try Data(Self.main.utf8).write(to: folder.appendingPathComponent("Sources/app/main.swift"))

    let build = try buildWithoutEngineHeaders(
      in: folder, temporaryFiles: temporary.programsTemporaryFolder())
    #expect(build.status == 0, "\(build.output)\n\(build.error)")
    let app = folder.appendingPathComponent(".build/debug/app")
    let symbols = try ChildProcess.runCommand("nm", [app.path])
    #expect(symbols.status == 0)
    let engineSymbols = symbols.output.split(separator: "\n").filter { line in
      ["ObservableDefaultsEtcd", "ObservableDefaultsNATS", "curl_", "natsConnection", "kvStore"]
        .contains { line.contains($0) }
    }
    #expect(engineSymbols.isEmpty, "\(engineSymbols.prefix(5))")
    // The registration hook is there; it registers nothing.
    #expect(symbols.output.contains(" T observable_defaults_register_cloud_engines"))

    let home = temporary.file("home")
    let run = try ChildProcess.runCommand(
      app.path, [],
      environment: [
        "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
        "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
        "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": "http://127.0.0.1:9",
      ])
    #expect(run.output == "x embedded\n", "\(run.error)")
  }
}
