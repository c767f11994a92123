import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// Property-list files opened by path: trees, typed edits, saves that keep the format and refuse
/// to overwrite what another writer changed.
@MainActor
@Suite struct PropertyListFileRowsTests {
  /// A writable copy of a fixture in the test folder.
  private func copy(_ fixture: String) throws -> URL {
    let url = TestPreferences.folder.appendingPathComponent("\(UUID().uuidString)-\(fixture)")
    try FileManager.default.copyItem(
      at: TestPreferences.fixtures.appendingPathComponent(fixture), to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    return url
  }

  private func rows(_ domain: PropertyListFileRows) -> [PropertyRow] {
    (0..<domain.rowCount).map(domain.row(at:))
  }

  private func index(of path: PropertyListPath, in domain: PropertyListFileRows) throws -> Int {
    try #require((0..<domain.rowCount).first { domain.path(at: $0) == path }, "\(path)")
  }

  /// Top-level key counts from SOURCES.md.
  @Test(arguments: [
    ("iterm2-xml.plist", 81), ("rectangle-binary.plist", 18), ("finder-binary.plist", 50),
    ("global-preferences-binary.plist", 51), ("empty-dict-binary.plist", 0),
    ("quicksilver-plugins-xml.plist", 2),
  ])
  func opensEveryFixtureWithItsTopLevelKeysClosed(file: String, keyCount: Int) throws {
    let domain = try PropertyListFileRows(
      file: TestPreferences.fixtures.appendingPathComponent(file))
    #expect(domain.rowCount == keyCount)
    #expect(domain.kind == .file)
    #expect(domain.title == file)
  }

  @Test func showsFixtureValuesWithTheirTypes() throws {
    let rectangle = try PropertyListFileRows(
      file: TestPreferences.fixtures.appendingPathComponent("rectangle-binary.plist"))
    let rows = rows(rectangle)
    let lastVersion = try #require(rows.first { $0.name == "lastVersion" })
    #expect(lastVersion.typeName == "String")
    #expect(lastVersion.value == "92")
    #expect(lastVersion.editing == .text(TextValueFormat(base: .propertyList(.string)), text: "92"))
    #expect(rows.first { $0.name == "hideMenubarIcon" }?.editing == .toggle(true))
    #expect(rows.first { $0.name == "leftHalf ▸" }?.value == "{2 keys}")

    let global = try PropertyListFileRows(
      file: TestPreferences.fixtures.appendingPathComponent("global-preferences-binary.plist"))
    let globalRows = self.rows(global)
    #expect(globalRows.first { $0.name == "AppleLanguagesSchemaVersion" }?.value == "3000")
    #expect(globalRows.first { $0.name == "KB_SingleQuoteOption" }?.value == "‘abc’")
    let date = try #require(globalRows.first { $0.name == "AKLastEmailListRequestDateKey" })
    #expect(date.typeName == "Date")
    #expect(date.value == "2023-01-08T19:59:26.426036Z", "every digit of the fraction")
  }

  @Test func containersOpenAndCloseToShowTheirChildren() throws {
    let domain = try PropertyListFileRows(
      file: TestPreferences.fixtures.appendingPathComponent("iterm2-xml.plist"))
    let bookmarks = try index(of: ["New Bookmarks"], in: domain)
    #expect(domain.toggleExpansion(at: bookmarks))
    #expect(domain.row(at: bookmarks).name == "New Bookmarks ▾")
    #expect(domain.row(at: bookmarks + 1).name == "  [0] ▸")
    #expect(domain.toggleExpansion(at: bookmarks + 1))
    let columns = try index(of: ["New Bookmarks", 0, "Columns"], in: domain)
    let row = domain.row(at: columns)
    #expect(row.name == "    Columns")
    #expect(row.key == "New Bookmarks / [0] / Columns")
    #expect(row.value == "80")
    let directory = try index(of: ["New Bookmarks", 0, "Working Directory"], in: domain)
    #expect(domain.row(at: directory).value == "/Users/me")
    #expect(!domain.toggleExpansion(at: columns), "a scalar does not open")

    #expect(domain.toggleExpansion(at: bookmarks))
    #expect(domain.rowCount == 81)
    let empty = try index(of: ["URLHandlersByGuid"], in: domain)
    #expect(!domain.toggleExpansion(at: empty), "an empty dictionary has nothing to show")
    #expect(domain.row(at: empty).name == "URLHandlersByGuid")
    #expect(domain.row(at: empty).editing == .readOnly("an empty Dictionary has no values"))
  }

  @Test func editingANestedValueThroughTheKeysSavesOnlyThatValue() throws {
    let url = try copy("iterm2-xml.plist")
    let before = try #require(try PropertyListFile(url: url).read())
    let domain = try PropertyListFileRows(file: url)
    let session = EditorSession(sources: [domain])
    let bookmarks = try index(of: ["New Bookmarks"], in: domain)
    for _ in 0..<bookmarks { _ = session.handle(.down) }
    _ = session.handle(.enter)
    _ = session.handle(.down)
    _ = session.handle(.enter)
    let columns = try index(of: ["New Bookmarks", 0, "Columns"], in: domain)
    for _ in 0..<(columns - bookmarks - 1) { _ = session.handle(.down) }
    for key: KeyPress in [
      .enter, .backspace, .backspace, .character("1"), .character("3"),
      .character("2"), .enter,
    ] {
      _ = session.handle(key)
    }
    #expect(session.state.message?.isError == false, "\(String(describing: session.state.message))")
    #expect(domain.row(at: columns).value == "132")

    let after = try #require(try PropertyListFile(url: url).read())
    #expect(after.format == .xml)
    let path: PropertyListPath = ["New Bookmarks", 0, "Columns"]
    #expect(PropertyListTree.value(at: path, in: after.values) as? Int == 132)
    let expected = try PropertyListTree.setting(132, at: path, in: before.values)
    #expect(propertyListValuesEqual(after.values, expected))
  }

  @Test func editsAreTypedAndBadTextIsRefused() throws {
    let url = try copy("global-preferences-binary.plist")
    let domain = try PropertyListFileRows(file: url)
    let session = EditorSession(sources: [domain])
    let dateRow = try index(of: ["AKLastEmailListRequestDateKey"], in: domain)
    for _ in 0..<dateRow { _ = session.handle(.down) }
    _ = session.handle(.enter)
    for character in "x" { _ = session.handle(.character(character)) }
    _ = session.handle(.enter)
    #expect(session.state.message?.isError == true)
    #expect(session.state.message?.text.contains("not a date (ISO 8601") == true)
    _ = session.handle(.escape)

    #expect(
      throws: PropertyListEditError.wrongType(["AppleLanguagesSchemaVersion"], expected: .integer)
    ) {
      try domain.edit("3001", at: ["AppleLanguagesSchemaVersion"])
    }
    #expect(throws: PropertyListEditError.notAScalar(["AppleLanguages"])) {
      try domain.edit("x", at: ["AppleLanguages"])
    }
    let date = try PropertyListScalarType.date.parse("2030-01-01T00:00:00.000125Z")
    try domain.edit(date, at: ["AKLastEmailListRequestDateKey"])
    try domain.edit(UInt64.max, at: ["AppleLanguagesSchemaVersion"])
    #expect(domain.editedKeys == ["AKLastEmailListRequestDateKey", "AppleLanguagesSchemaVersion"])
    try domain.save()
    #expect(domain.editedKeys.isEmpty)

    let saved = try #require(try PropertyListFile(url: url).read())
    #expect(saved.format == .binary)
    #expect(saved.values["AppleLanguagesSchemaVersion"] as? UInt64 == UInt64.max)
    #expect(propertyListValuesEqual(saved.values["AKLastEmailListRequestDateKey"], date))
    #expect(saved.values["KB_SingleQuoteOption"] as? String == "‘abc’")
  }

  @Test func saveWithoutEditsDoesNotTouchTheFile() throws {
    let url = try copy("finder-binary.plist")
    let before = try FileManager.default.attributesOfItem(atPath: url.path)
    let domain = try PropertyListFileRows(file: url)
    try domain.save()
    let after = try FileManager.default.attributesOfItem(atPath: url.path)
    #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
  }

  @Test func aValueChangedOnDiskIsNotOverwrittenAndReloadShowsIt() throws {
    let url = try copy("rectangle-binary.plist")
    let domain = try PropertyListFileRows(file: url)
    _ = try PropertyListFile(url: url).apply(["lastVersion": .set("93")])
    let row = try index(of: ["lastVersion"], in: domain)
    #expect(throws: PropertyListConflictError(file: url, keys: ["lastVersion"])) {
      try domain.setValue("100", at: row)
    }
    #expect(domain.row(at: row).value == "92", "the refused edit is dropped")
    #expect(try PropertyListFile(url: url).read()?.values["lastVersion"] as? String == "93")

    let flag = try index(of: ["hideMenubarIcon"], in: domain)
    try domain.setValue(false, at: flag)
    #expect(domain.row(at: row).value == "93", "a merged save shows the other writer's value")
    try domain.reload()
    #expect(domain.row(at: flag).value == "false")
  }

  @Test func anEditRedrawsItsRowAndAMergedSaveRedrawsTheOtherWritersRow() throws {
    let url = try copy("rectangle-binary.plist")
    let domain = try PropertyListFileRows(file: url)
    let canvas = MemoryCanvas(rows: 30, columns: 100)
    let session = EditorSession(sources: [domain])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    _ = try PropertyListFile(url: url).apply(["lastVersion": .set("93")])
    let flag = try index(of: ["hideMenubarIcon"], in: domain)
    let version = try index(of: ["lastVersion"], in: domain)
    for _ in 0..<flag { screen.draw(session.handle(.down)) }
    screen.draw(session.handle(.character(" ")))

    #expect(session.state.message?.isError == false)
    let counts = (0..<domain.rowCount).map { screen.redrawCount(source: 0, row: $0) }
    let redrawn = counts.indices.filter { counts[$0] > 0 }
    #expect(redrawn == [flag, version].sorted(), "the edited row and the other writer's row only")
    #expect(canvas.line(2 + version).contains("93"))
    #expect(canvas.line(2 + flag).contains("false"))
  }

  @Test func theEditorsReadOnlyModeStillOpensContainers() throws {
    let domain = try PropertyListFileRows(
      file: TestPreferences.fixtures.appendingPathComponent("rectangle-binary.plist"))
    let session = EditorSession(sources: [domain], isReadOnly: true)
    let leftHalf = try index(of: ["leftHalf"], in: domain)
    for _ in 0..<leftHalf { _ = session.handle(.down) }
    #expect(session.handle(.enter).layout)
    #expect(domain.row(at: leftHalf + 1).name == "  keyCode")
    _ = session.handle(.down)
    _ = session.handle(.enter)
    #expect(session.state.message?.isError == true)
    #expect(domain.row(at: leftHalf + 1).value == "123")
  }

  @Test func aMissingFileIsAnError() {
    #expect(throws: PropertyListError.self) {
      try PropertyListFileRows(file: URL(fileURLWithPath: "/nonexistent/x.plist"))
    }
  }
}
