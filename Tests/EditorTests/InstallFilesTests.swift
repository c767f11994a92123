import Foundation
import TestSupport
import Testing

/// The files `scripts/install` puts in place: the scripts and completions parse, the man page
/// renders and names every verb.
@Suite struct InstallFilesTests {
  private static let scripts = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts")

  /// Runs `command` with `arguments`; nil when it is not installed.
  private func run(_ command: String, _ arguments: [String]) throws -> (Int32, String)? {
    guard
      let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map({ "\($0)/\(command)" }).first(where: FileManager.default.isExecutableFile(atPath:))
    else { return nil }
    let result = try ChildProcess.run(
      URL(fileURLWithPath: path), arguments, environment: ["MANWIDTH": "80"])
    return (result.status, result.output + result.error)
  }

  @Test(arguments: ["editor", "install", "share/settings-editor.bash"])
  func bashScriptsParse(_ name: String) throws {
    let result = try #require(try run("bash", ["-n", Self.scripts.appendingPathComponent(name).path]))
    #expect(result.0 == 0, "\(result.1)")
  }

  @Test func theManPageRendersAndNamesEveryVerb() throws {
    let page = Self.scripts.appendingPathComponent("share/settings-editor.1").path
    guard let (status, text) = try run("man", ["-l", "-P", "cat", page]) else { return }
    #expect(status == 0)
    for verb in [
      "read", "read-type", "write", "rename", "delete", "domains", "find", "export", "import",
      "watch", "help",
    ] {
      #expect(text.contains(verb), "\(verb)")
    }
    #expect(text.contains("C-u C-k"), "the field keys")
  }

  @Test func theCompletionsOfferEveryVerb() throws {
    let verbs = "read read-type write rename delete domains find export import watch help"
    for name in ["settings-editor.bash", "settings-editor.fish"] {
      let text = try String(
        contentsOf: Self.scripts.appendingPathComponent("share/" + name), encoding: .utf8)
      #expect(text.contains(verbs), "\(name)")
    }
    let zsh = try String(
      contentsOf: Self.scripts.appendingPathComponent("share/_settings-editor"), encoding: .utf8)
    for verb in verbs.split(separator: " ") { #expect(zsh.contains("'\(verb):"), "\(verb)") }
  }
}
