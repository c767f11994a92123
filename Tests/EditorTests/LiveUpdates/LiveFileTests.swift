import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsCore
@testable import SettingsEditor

/// A property-list file opened by path follows another writer live: changed rows update in
/// place (and only they redraw), the selection stays on its key, unsaved edits are kept and the
/// conflict rule on save still applies.
@MainActor
@Suite struct LiveFileTests {
  @Test func anotherWritersChangesRedrawOnlyTheirRowsAndKeepEditsAndSelection() async throws {
    let url = try TestPreferences.propertyListFile([
      "age": 20, "name": "Fatbobman", "prefs": ["size": 12, "theme": "dark"], "zeta": 1,
    ])
    let domain = try PropertyListFileRows(file: url)
    domain.startWatching { job in Task { @MainActor in job() } }
    let (canvas, session, screen) = TestScreen.show(domain, rows: 14)
    for key: KeyPress in [.down, .down, .enter, .up] { screen.draw(session.handle(key)) }
    // Rows: age, name (focused), prefs ▾, size, theme, zeta.
    #expect(domain.rowCount == 6)
    #expect(session.focusedRow?.key == "name")
    try domain.edit("local", at: ["name"])  // an unsaved edit
    screen.draw(Damage(rows: [1]))
    let start = (0..<6).map { screen.redrawCount(source: 0, row: $0) }

    _ = try PropertyListFile(url: url).apply([
      "age": .set(30), "prefs": .set(["size": 12, "theme": "light"]), "name": .set("theirs"),
    ])
    #expect(await poll { domain.row(at: 0).value == "30" })
    screen.draw(Damage())
    let counts = (0..<6).map { screen.redrawCount(source: 0, row: $0) - start[$0] }
    #expect(counts == [1, 0, 1, 0, 1, 0], "age, prefs and prefs / theme only")
    #expect(canvas.line(2).contains("~ age") && canvas.line(2).hasSuffix("30"))
    #expect(canvas.line(6).contains("theme") && canvas.line(6).hasSuffix("light"))
    #expect(canvas.line(5).contains("size") && !canvas.line(5).contains("~"))
    #expect(domain.row(at: 1).value == "local", "the unsaved edit is kept")
    #expect(session.state.rowIndex == 1, "the cursor did not move")
    #expect(throws: PropertyListConflictError(file: url, keys: ["name"])) { try domain.save() }

    _ = try PropertyListFile(url: url).apply(["aaa": .set(true)])
    #expect(await poll { domain.rowCount == 7 })
    screen.draw(Damage())
    #expect(session.focusedRow?.key == "name", "the selection follows its key")
    #expect(canvas.line(2).contains("aaa"))
  }

  @Test func ownSavesAndUnchangedRewritesRedrawNothingMore() async throws {
    let url = try TestPreferences.propertyListFile(["age": 20, "name": "Fatbobman"])
    let domain = try PropertyListFileRows(file: url)
    domain.startWatching { job in Task { @MainActor in job() } }
    let (_, session, screen) = TestScreen.show(domain, rows: 10)
    for key: KeyPress in [.enter, .backspace, .backspace, .character("7"), .enter] {
      screen.draw(session.handle(key))
    }
    #expect(screen.redrawCount(source: 0, row: 0) == 1)
    // Another writer rewrites the file with a change to name only; the own save's event too.
    _ = try PropertyListFile(url: url).apply(["name": .set("x")])
    // The own save's change notice came before this one: it has been handled too.
    #expect(await poll { domain.row(at: 1).value == "x" })
    screen.draw(Damage())
    #expect(screen.redrawCount(source: 0, row: 0) == 1, "the saved row is not redrawn again")
    #expect(screen.redrawCount(source: 0, row: 1) == 1)
    #expect(try PropertyListFile(url: url).read()?.values["age"] as? Int == 7)
  }

  /// A file opened by path follows changes as a suite does: its own save reads nothing and its
  /// change notice parses nothing; another writer's change is parsed once, and in a binary file
  /// only the entry that differs is decoded (before: a parse for the save and one per notice).
  @Test func theOwnSaveParsesNothingAndAnOutsideChangeIsParsedOnce() async throws {
    let (url, values, domain) = try Self.watchedBinaryFile()
    #expect(PropertyListCounters.counts(for: url).parses == 1)

    try domain.store(["key-1": "mine"])
    #expect(PropertyListCounters.counts(for: url).parses == 1, "the save wrote from its version")
    var outside = values
    outside["key-2"] = "theirs"
    try PropertyListSerialization.data(fromPropertyList: outside, format: .binary, options: 0)
      .write(to: url, options: .atomic)
    #expect(await poll { domain.storedValues["key-2"] as? String == "theirs" })
    // Both notices (the save's and the outside write's) are handled by now: one parse in all.
    #expect(PropertyListCounters.counts(for: url).parses == 2)
    #expect(domain.storedValues["key-1"] as? String == "value 1", "the outside write replaced it")
  }

  /// The first outside change after opening is re-read entry by entry too: the open kept the
  /// file's entries, so a one-key splice decodes that key alone (before: all 200).
  @Test func theFirstOutsideChangeAfterOpeningDecodesOnlyItsEntry() async throws {
    let (url, _, domain) = try Self.watchedBinaryFile()
    #expect(try PropertyListFile(url: url).write(["key-2": .set("theirs")]))
    #expect(await poll { domain.storedValues["key-2"] as? String == "theirs" })
    #expect(PropertyListCounters.counts(for: url).keysReread == 1)
    #expect(domain.storedValues.count == 200)
  }

  /// A binary file of 200 keys written by Foundation (`key-N`: `value N`), opened by path and
  /// followed.
  private static func watchedBinaryFile() throws -> (
    url: URL, values: [String: String], domain: PropertyListFileRows
  ) {
    let url = try TestPreferences.propertyListFile([:])
    let values = Dictionary(uniqueKeysWithValues: (0..<200).map { ("key-\($0)", "value \($0)") })
    try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
      .write(to: url)
    let domain = try PropertyListFileRows(file: url)
    domain.startWatching { job in Task { @MainActor in job() } }
    return (url, values, domain)
  }
}
