import Foundation
import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

@MainActor
@Suite struct PropertyListDomainTests {
  /// Top-level key counts from SOURCES.md.
  @Test(arguments: [
    ("iterm2-xml.plist", 81), ("rectangle-binary.plist", 18), ("finder-binary.plist", 50),
    ("global-preferences-binary.plist", 51), ("empty-dict-binary.plist", 0),
    ("quicksilver-plugins-xml.plist", 2),
  ])
  func opensEveryFixtureWithItsTopLevelKeys(file: String, keyCount: Int) throws {
    let domain = try PropertyListDomain(file: TestPreferences.fixtures.appendingPathComponent(file))
    #expect(domain.rowCount == keyCount)
    #expect(domain.kind == .file)
    #expect(domain.title == file)
  }

  @Test func showsFixtureValuesWithTheirTypesReadOnly() throws {
    let rectangle = try PropertyListDomain(file: TestPreferences.fixtures.appendingPathComponent("rectangle-binary.plist"))
    let rows = (0..<rectangle.rowCount).map(rectangle.row(at:))
    let lastVersion = try #require(rows.first { $0.name == "lastVersion" })
    #expect(lastVersion.typeName == "String")
    #expect(lastVersion.value == "92")
    #expect(lastVersion.editing == .readOnly("files opened by path are read-only"))
    #expect(rows.first { $0.name == "hideMenubarIcon" }?.value == "true")
    #expect(rows.first { $0.name == "leftHalf" }?.value == "{2 keys}")

    let global = try PropertyListDomain(file: TestPreferences.fixtures.appendingPathComponent("global-preferences-binary.plist"))
    let globalRows = (0..<global.rowCount).map(global.row(at:))
    #expect(globalRows.first { $0.name == "AppleLanguagesSchemaVersion" }?.value == "3000")
    #expect(globalRows.first { $0.name == "KB_SingleQuoteOption" }?.value == "‘abc’")
    #expect(globalRows.first { $0.name == "AKLastEmailListRequestDateKey" }?.typeName == "Date")
    #expect(globalRows.first { $0.name == "com.apple.mouse.scaling" }?.value == "2.5")
  }

  @Test func aMissingFileIsAnError() {
    #expect(throws: PropertyListError.self) {
      try PropertyListDomain(file: URL(fileURLWithPath: "/nonexistent/x.plist"))
    }
  }

  @Test func anotherWriterRedrawsOnlyTheChangedKeysRow() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = try #require(PropertyListDefaults(suiteName: suite))
    try writer.write("Fatbobman", forKey: "name")
    try writer.write(20, forKey: "age")
    try writer.write(true, forKey: "enabled")
    let domain = PropertyListDomain(suite: suite)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let canvas = MemoryCanvas(rows: 10, columns: 80)
    let session = EditorSession(sources: [domain])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    #expect(canvas.line(2).contains("age      Int     20"))

    try writer.write(42, forKey: "age")
    screen.draw(Damage())
    #expect(canvas.line(2).contains("age      Int     42"))
    #expect((0..<3).map { screen.redrawCount(source: 0, row: $0) } == [1, 0, 0])

    try writer.write(42, forKey: "age")
    screen.draw(Damage())
    #expect(screen.redrawCount(source: 0, row: 0) == 1, "an unchanged value redraws nothing")
  }

  @Test func editingASuiteValueWritesTheFileAndRedrawsTheRowOnce() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = try #require(PropertyListDefaults(suiteName: suite))
    try writer.write(20, forKey: "age")
    let domain = PropertyListDomain(suite: suite)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let canvas = MemoryCanvas(rows: 10, columns: 80)
    let session = EditorSession(sources: [domain])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    for key: KeyPress in [.enter, .backspace, .backspace, .character("7"), .enter] { screen.draw(session.handle(key)) }
    #expect(canvas.line(2).hasSuffix("│  age   Int   7"))
    #expect(screen.redrawCount(source: 0, row: 0) == 1)
    try writer.flush()
    let onDisk = try #require(try PropertyListFile(url: PreferencesDirectory.fileURL(forSuite: suite)).read())
    #expect(onDisk.values["age"] as? Int == 7)
  }

  @Test func aNewKeyRelaysOutTheList() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = try #require(PropertyListDefaults(suiteName: suite))
    try writer.write("b", forKey: "b")
    let domain = PropertyListDomain(suite: suite)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let canvas = MemoryCanvas(rows: 10, columns: 80)
    let screen = EditorScreen(canvas: canvas, session: EditorSession(sources: [domain]), glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    try writer.write("a", forKey: "a")
    screen.draw(Damage())
    #expect(domain.rowCount == 2)
    #expect(canvas.line(2).contains("a  "))
    #expect(canvas.line(3).contains("b  "))
  }
}
