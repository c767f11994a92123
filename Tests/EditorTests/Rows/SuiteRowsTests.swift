import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

@MainActor
@Suite struct SuiteRowsTests {
  @Test func anotherWriterRedrawsOnlyTheChangedKeysRow() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("Fatbobman", forKey: "name")
    try writer.write(20, forKey: "age")
    try writer.write(true, forKey: "enabled")
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
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
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write(20, forKey: "age")
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let canvas = MemoryCanvas(rows: 10, columns: 80)
    let session = EditorSession(sources: [domain])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    for key: KeyPress in [.enter, .backspace, .backspace, .character("7"), .enter] {
      screen.draw(session.handle(key))
    }
    #expect(canvas.line(2).hasSuffix("│  age   Int   7"))
    #expect(screen.redrawCount(source: 0, row: 0) == 1)
    try writer.flush()
    let onDisk = try #require(
      try PropertyListFile(url: TestPreferences.file(ofSuite: suite)).read())
    #expect(onDisk.values["age"] as? Int == 7)
  }

  @Test func suiteScalarsOfEveryTypeAreEditableByType() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write(UInt64.max, forKey: "big")
    try writer.write(Data([0xca, 0xfe]), forKey: "bytes")
    try writer.write([1, 2], forKey: "list")
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    let rows = (0..<domain.rowCount).map(domain.row(at:))
    #expect(
      rows.map(\.editing) == [
        .text(TextValueFormat(base: .propertyList(.integer)), text: "18446744073709551615"),
        .text(TextValueFormat(base: .propertyList(.data)), text: "cafe"),
        .readOnly("Enter opens and closes it"),
      ])
    let session = EditorSession(sources: [domain])
    for key: KeyPress in [.down, .enter, .backspace, .character("0"), .enter] {
      _ = session.handle(key)
    }
    try writer.flush()
    #expect(writer.persistentValue(forKey: "bytes") as? Data == Data([0xca, 0xf0]))
  }

  @Test func aNewKeyRelaysOutTheList() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("b", forKey: "b")
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let canvas = MemoryCanvas(rows: 10, columns: 80)
    let screen = EditorScreen(
      canvas: canvas, session: EditorSession(sources: [domain]), glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    try writer.write("a", forKey: "a")
    screen.draw(Damage())
    #expect(domain.rowCount == 2)
    #expect(canvas.line(2).contains("a  "))
    #expect(canvas.line(3).contains("b  "))
  }
}

@MainActor
@Suite struct MalformedSuiteTests {
  @Test func aSuiteThatDoesNotParseSaysSoAndIsLeftAlone() throws {
    let suite = TestPreferences.uniqueSuite()
    let file = TestPreferences.file(ofSuite: suite)
    try Data("garbage".utf8).write(to: file)
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    #expect(domain.rowCount == 0)
    let canvas = MemoryCanvas(rows: 10, columns: 120)
    let screen = EditorScreen(
      canvas: canvas, session: EditorSession(sources: [domain]), glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    #expect(canvas.line(2).contains("│  not a valid property list, left unchanged: "))
    #expect(try Data(contentsOf: file) == Data("garbage".utf8))
  }
}
