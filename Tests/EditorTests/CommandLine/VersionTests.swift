import Foundation
import Testing

/// `settings-editor --version` prints the package's version, which is the newest release of
/// CHANGELOG.md: the one number the packages, the tag and the changelog share.
@Suite struct VersionTests {
  static let changelog = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")

  /// The version of CHANGELOG.md's newest release: its first `## [x.y.z] - date` heading.
  static func newestRelease() throws -> String? {
    let text = try String(contentsOf: changelog, encoding: .utf8)
    let heading = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/.anchorsMatchLineEndings()
    return text.firstMatch(of: heading).map { String($0.1) }
  }

  @Test func versionIsTheChangelogsNewestRelease() throws {
    let release = try #require(try Self.newestRelease())
    let result = try EditorProcess().run("--version")
    #expect(result.status == 0)
    #expect(result.output == "settings-editor \(release)\n")
    #expect(result.error == "")
  }

  @Test func helpNamesTheVersionOption() throws {
    let help = try EditorProcess().run("--help")
    #expect(help.output.contains("  settings-editor --version            show the version\n"))
  }
}
