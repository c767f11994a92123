import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import TestSupport
import Testing

/// A separate program (`schema-probe`) publishes the schemas of its settings classes when it
/// reads its settings, and only when they changed.
@Suite struct SchemaPublishingTests {
  @Test func aProgramPublishesTheSchemaOfEachClassAndStoreItReads() throws {
    let probe = try SchemaProbeRun()
    let result = try probe.run(["print"])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output.split(separator: "\n") == [
        "displayName=Probe", "theme=light", "scrollback=1000", "fontSize=12.5",
        "showsToolbar=true", "origin=10,20", "lastFolder=nil", "homePage=https://example.com",
        "cloud theme=dark",
      ])
    #expect(
      probe.publishedNames == [
        "schema-probe/schema_probe.ProbeAppSettings@com.example.schema-probe.plist",
        "schema-probe/schema_probe.ProbeCloudPreferences@cloud-schema-probe.plist",
      ])
    let files = probe.published.files()
    let app = try files[0].schema.get()
    #expect(app.program.name == "schema-probe")
    #expect(app.program.executable == (try probe.program.path))
    #expect(app.program.build != nil)
    #expect(app.module == "schema_probe")
    #expect(app.className == "ProbeAppSettings")
    #expect(app.store == .suite("com.example.schema-probe"))
    #expect(app.prefix == "")
    #expect(app.schemaVersion == nil)
    #expect(app.keys == probeAppSettingsKeys())
    let cloud = try files[1].schema.get()
    #expect(cloud.store == .cloud(container: "schema-probe"))
    #expect(cloud.keys.map(\.key) == ["theme"])
    #expect(cloud.keys[0].defaultValue == PropertyListObject("dark"))
    #expect(cloud.keys[0].summary == "The theme every device of the user shares.")
    for file in files {
      #expect(try permissions(of: file.url) == 0o600)
      #expect(!file.isProgramGone)
    }
    #expect(
      try permissions(of: probe.published.url.appendingPathComponent("schema-probe")) == 0o700)
    // Reading publishes; it writes no preferences.
    #expect(!FileManager.default.fileExists(atPath: probe.temporary.file("config").path))
  }

  @Test func aSecondRunLeavesTheUnchangedFilesAlone() throws {
    let probe = try SchemaProbeRun()
    #expect(try probe.run(["print"]).status == 0)
    let before = try probe.published.files().map { try identity(of: $0.url) }
    #expect(try probe.run(["print"]).status == 0)
    #expect(try probe.published.files().map { try identity(of: $0.url) } == before)
  }

  @Test func aSchemaOfANewerBuildIsNotReplacedByAnOlderOne() throws {
    let probe = try SchemaProbeRun()
    #expect(try probe.run(["print"]).status == 0)
    let url = probe.published.files()[0].url
    try rewrite(url, build: Date(timeIntervalSince1970: 4_102_444_800))  // 2100
    let newer = try Data(contentsOf: url)
    #expect(try probe.run(["print"]).status == 0)
    #expect(try Data(contentsOf: url) == newer)

    try rewrite(url, build: Date(timeIntervalSince1970: 946_684_800))  // 2000
    #expect(try probe.run(["print"]).status == 0)
    let replaced = try probe.published.files()[0].schema.get()
    #expect(replaced.keys[0].summary == "The name shown in the title bar.")
    #expect(replaced.program.build != Date(timeIntervalSince1970: 946_684_800))
  }

  @Test(arguments: ["0", "off", "FALSE", "no"])
  func theEnvironmentVariableTurnsPublishingOff(word: String) throws {
    let probe = try SchemaProbeRun()
    #expect(try probe.run(["print"], publishing: word).status == 0)
    #expect(!FileManager.default.fileExists(atPath: probe.published.url.path))
  }

  @Test func aTestBundlePublishesNothing() {
    #expect(!SettingsSchemaPublisher.isEnabled)
  }

  @Test func schemasWrittenForInstallationRecordNoExecutable() throws {
    let probe = try SchemaProbeRun()
    let folder = probe.temporary.file("share/ObservableDefaults/schemas")
    let result = try probe.run(["write-schemas", folder.path])
    #expect(result.status == 0, "\(result.error)")
    let installed = SettingsSchemaDirectory(url: folder)
    #expect(result.output == installed.files().map { $0.url.path + "\n" }.joined())
    #expect(installed.files().count == 2)
    for file in installed.files() {
      let schema = try file.schema.get()
      #expect(schema.program == SettingsSchema.Program(name: "schema-probe"))
      #expect(!file.isProgramGone)
    }
    #expect(try installed.files()[0].schema.get().keys == probeAppSettingsKeys())
  }

  @Test func theUsersFileHidesTheInstalledOneOfTheSameName() throws {
    let probe = try SchemaProbeRun()
    let installed = probe.temporary.file("installed/ObservableDefaults/schemas")
    #expect(try probe.run(["write-schemas", installed.path]).status == 0)
    #expect(try probe.run(["print"]).status == 0)
    let listed = SettingsSchemaDirectory.allFiles(
      in: [probe.published, SettingsSchemaDirectory(url: installed)])
    #expect(listed.map(\.url) == probe.published.files().map(\.url))
    #expect(SettingsSchemaDirectory(url: installed).files().count == 2)
  }

  @Test func aSchemaWhoseExecutableIsGoneIsListedAsGone() throws {
    let probe = try SchemaProbeRun()
    #expect(try probe.run(["print"]).status == 0)
    let url = probe.published.files()[0].url
    var root = try plist(at: url)
    root["program"] = ["name": "schema-probe", "executable": probe.temporary.file("gone").path]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: url)
    #expect(probe.published.files()[0].isProgramGone)
  }

  /// The file's inode and modification time: a file replaced or rewritten changes one of them.
  private func identity(of url: URL) throws -> [String] {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return ["\(attributes[.systemFileNumber] ?? 0)", "\(attributes[.modificationDate] ?? 0)"]
  }

  private func plist(at url: URL) throws -> [String: Any] {
    try #require(
      PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        as? [String: Any])
  }

  /// Records `build` as the schema's build and another summary for its first key.
  private func rewrite(_ url: URL, build: Date) throws {
    var root = try plist(at: url)
    var program = try #require(root["program"] as? [String: Any])
    program["build"] = build
    root["program"] = program
    var keys = try #require(root["keys"] as? [[String: Any]])
    keys[0]["summary"] = "Written by another build."
    root["keys"] = keys
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: url)
  }
}
