import Foundation
import TestSupport
import Testing

/// The editor on a machine without libnats: it starts and runs everything but NATS, and a NATS
/// configuration fails with the Debian package to install, not at program start (libnats is
/// loaded with dlopen when a NATS configuration is first used).
@Suite struct NATSLibraryMissingTests {
  /// libnats' file as the dynamic loader names it (`libnats.so.3.4` in a library folder of
  /// `ldconfig`'s cache).
  static func libnatsFile() throws -> String? {
    let cache = try ChildProcess.runCommand("ldconfig", ["-p"])
    let line = cache.output.split(separator: "\n").first { $0.contains("libnats.so.3.4 ") }
    return line.flatMap { $0.components(separatedBy: " => ").last }
  }

  /// Runs the built `settings-editor` with `arguments` in a private mount namespace where
  /// libnats' file is `/dev/null` (needs root, as CI and these tests run), with preferences in
  /// `folder` and a NATS configuration whose server does not listen.
  func runWithoutLibnats(_ arguments: [String], in folder: TemporaryFolder) throws
    -> ChildProcess.Result
  {
    let library = try #require(try Self.libnatsFile(), "libnats3.4 is installed for the tests")
    // The file behind the name's symbolic links: a mount over a link covers its target.
    let file = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
    var variables = programEnvironment(in: folder)
    variables["OBSERVABLE_DEFAULTS_NATS_SERVERS"] = "nats://127.0.0.1:1"
    return try ChildProcess.runCommand(
      "unshare",
      [
        "--mount", "--propagation", "private", "sh", "-c",
        "mount --bind /dev/null \"$0\" && exec \"$@\"", file, settingsEditor.path,
      ] + arguments, environment: variables)
  }

  @Test func aNATSConfigurationWithoutLibnatsNamesThePackage() throws {
    #expect(getuid() == 0, "hiding libnats needs a mount namespace: run as root")
    let folder = try TemporaryFolder(prefix: "nats-library-missing")
    defer { folder.remove() }
    let status = try runWithoutLibnats(["cloud", "status"], in: folder)
    #expect(status.status == 78)
    let library = try #require(try Self.libnatsFile())
    #expect(
      status.output == """
        backend: nats
        state: unusable configuration
        error: nats: libnats.so.3.4 could not be loaded (\(library): file too short); install it \
        (Debian, Ubuntu: apt-get install libnats3.4)

        """)
  }

  @Test func everythingElseRunsWithoutLibnats() throws {
    #expect(getuid() == 0, "hiding libnats needs a mount namespace: run as root")
    let folder = try TemporaryFolder(prefix: "nats-library-missing")
    defer { folder.remove() }
    let write = try runWithoutLibnats(["write", "com.example.demo", "name", "Ada"], in: folder)
    #expect(write.status == 0, "\(write.error)")
    let read = try runWithoutLibnats(["read", "com.example.demo", "name"], in: folder)
    #expect(read.status == 0, "\(read.error)")
    #expect(read.output == "Ada\n")
  }
}
