import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@Suite struct PropertyListFileTests {
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/plists")

  /// The binary fixtures (real preference files, `*-binary.plist`): each one's name and bytes.
  static func binaryFixtures() throws -> [(name: String, data: Data)] {
    try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
      .filter { $0.hasSuffix("-binary.plist") }
      .map { ($0, try Data(contentsOf: fixtures.appendingPathComponent($0))) }
  }

  /// A copy of a fixture in `folder` (the fixtures stay read-only).
  func copy(_ fixture: String, into folder: TemporaryFolder) throws -> URL {
    let source = Self.fixtures.appendingPathComponent(fixture)
    try #require(FileManager.default.fileExists(atPath: source.path), "fixture \(source.path)")
    let url = folder.file(fixture)
    try FileManager.default.copyItem(at: source, to: url)
    return url
  }

  @Test func missingFileReadsAsNil() async throws {
    try await withTemporaryFolder { folder in
      let document = try PropertyListFile(url: folder.file("none.plist")).read()
      #expect(document == nil)
    }
  }

  @Test func binaryFixtureReadsCanonicalValues() async throws {
    try await withTemporaryFolder { folder in
      let url = try copy("global-preferences-binary.plist", into: folder)
      let document = try #require(try PropertyListFile(url: url).read())
      #expect(document.format == .binary)
      #expect(document.values.count == 51)
      #expect(document.values["AppleLanguagesSchemaVersion"] as? Int == 3000)
      #expect(document.values["com.apple.sound.beep.volume"] as? Double == 0.5909154415130615)
      #expect(document.values["KB_SingleQuoteOption"] as? String == "‘abc’")
      let date = try #require(document.values["AKLastEmailListRequestDateKey"] as? Date)
      #expect(date.timeIntervalSinceReferenceDate == 694900766.426036)
      let sync = try #require(document.values["com.apple.finder.SyncExtensions"] as? [String: Any])
      let map = try #require(sync["collaborationMap"] as? [String: Any])
      #expect(map["com.google.drivefs.finderhelper.findersync"] as? Bool == false)
    }
  }

  @Test func xmlFixtureReadsCanonicalValues() async throws {
    try await withTemporaryFolder { folder in
      let url = try copy("iterm2-xml.plist", into: folder)
      let document = try #require(try PropertyListFile(url: url).read())
      #expect(document.format == .xml)
      #expect(document.values.count == 81)
      #expect(document.values["FsTabDelay"] as? Double == 1.0)
      #expect(document.values["SUEnableAutomaticChecks"] as? Bool == false)
      let bookmarks = try #require(document.values["New Bookmarks"] as? [Any])
      let first = try #require(bookmarks.first as? [String: Any])
      #expect(first["Columns"] as? Int == 80)
    }
  }

  @Test func binaryFileStaysBinaryAndKeepsOtherKeys() async throws {
    try await withTemporaryFolder { folder in
      let url = try copy("global-preferences-binary.plist", into: folder)
      let file = PropertyListFile(url: url)
      let written = try file.apply(["added": .set("yes"), "AppleLanguages": .remove])
      #expect(written.format == .binary)
      let bytes = try Data(contentsOf: url)
      #expect(bytes.starts(with: Array("bplist00".utf8)))
      let reread = try #require(try file.read())
      #expect(reread.values.count == 51)
      #expect(reread.values["added"] as? String == "yes")
      #expect(reread.values["AppleLanguages"] == nil)
      let date = try #require(reread.values["NSLinguisticDataAssetsRequestTime"] as? Date)
      #expect(date.timeIntervalSinceReferenceDate == 694778378.525885)
    }
  }

  @Test func newFileIsXMLInANewFolder() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.url.appendingPathComponent("a/b/new.plist")
      _ = try PropertyListFile(url: url).apply(["k": .set(5)])
      let text = try String(contentsOf: url, encoding: .utf8)
      #expect(text.hasPrefix("<?xml"))
      #expect(try foundationRead(url)["k"] as? Int == 5)
    }
  }

  @Test func malformedFileKeepsItsBytesAndTheErrorNamesIt() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("bad.plist")
      try Data("garbage".utf8).write(to: url)
      let file = PropertyListFile(url: url)
      #expect(throws: PropertyListError.self) { try file.read() }
      let error = try #require(throws: PropertyListError.self) { try file.apply(["k": .set(1)]) }
      #expect(error.kind == .malformed)
      #expect(error.file == url)
      #expect(error.description.contains("bad.plist"))
      #expect(error.description.contains("not a valid property list"))
      #expect(try Data(contentsOf: url) == Data("garbage".utf8))
    }
  }

  @Test func emptyFileReadsAsEmpty() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("empty.plist")
      try Data().write(to: url)
      let document = try #require(try PropertyListFile(url: url).read())
      #expect(document.values.isEmpty)
    }
  }

  @Test func symlinkedFileWritesTheTargetAndKeepsItsMode() async throws {
    try await withTemporaryFolder { folder in
      let target = folder.file("real.plist")
      try foundationWrite(["old": 1], to: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
      let link = folder.file("link.plist")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
      _ = try PropertyListFile(url: link).apply(["new": .set(2)])
      let linkDestination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
      #expect(linkDestination == target.path)
      let values = try foundationRead(target)
      #expect(values["old"] as? Int == 1 && values["new"] as? Int == 2)
      let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions]
      #expect(mode as? Int == 0o600)
    }
  }

  @Test func unchangedApplyLeavesTheFileAlone() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("same.plist")
      let file = PropertyListFile(url: url)
      _ = try file.apply(["k": .set("v")])
      let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber]
      _ = try file.apply(["k": .set("v")])
      #expect(
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
          == inode as? Int)
    }
  }
}
