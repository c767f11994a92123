import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// Suites shown as trees, as files are: nested dictionaries and arrays open with Enter, a nested
/// edit writes its top-level key, other writers still redraw only the rows they changed.
@MainActor
@Suite struct SuiteTreeTests {
  private func show() throws -> (
    PropertyListDefaults, SuiteRows, MemoryCanvas, EditorSession, EditorScreen
  ) {
    let (suite, writer) = try TestPreferences.suite(
      ["age": 20, "prefs": ["theme": "dark", "sizes": [1, 2]], "zeta": true])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (canvas, session, screen) = TestScreen.show(domain, rows: 14)
    return (writer, domain, canvas, session, screen)
  }

  @Test func nestedContainersOpenAndANestedEditWritesTheTopLevelKey() throws {
    let (writer, domain, canvas, session, screen) = try show()
    #expect(canvas.line(3).contains("prefs ▸"))
    for key: KeyPress in [.down, .enter] { screen.draw(session.handle(key)) }
    // age, prefs ▾, sizes ▸, theme, zeta
    #expect(
      (0..<domain.rowCount).map { domain.row(at: $0).key } == [
        "age", "prefs", "prefs / sizes", "prefs / theme", "zeta",
      ])
    #expect(canvas.line(4).contains("  sizes ▸"))
    for key: KeyPress in [.down, .down, .enter] { screen.draw(session.handle(key)) }
    for _ in 0..<4 { screen.draw(session.handle(.backspace)) }
    for character in "light" { screen.draw(session.handle(.character(character))) }
    screen.draw(session.handle(.enter))
    #expect(session.state.message?.isError == false)
    let prefs = try #require(writer.persistentValue(forKey: "prefs") as? [String: Any])
    #expect(prefs["theme"] as? String == "light")
    #expect(prefs["sizes"] as? [Int] == [1, 2], "the rest of the key is kept")
    #expect(canvas.line(5).contains("theme") && canvas.line(5).hasSuffix("light"))

    // An element of a nested array.
    for key: KeyPress in [.up, .enter, .down, .down, .enter, .backspace, .character("5"), .enter] {
      screen.draw(session.handle(key))
    }
    let sizes = (writer.persistentValue(forKey: "prefs") as? [String: Any])?["sizes"] as? [Int]
    #expect(sizes == [1, 5])

    // u puts the key back as it was before the last edit, the focus stays on the element.
    screen.draw(session.handle(.character("u")))
    #expect(
      (writer.persistentValue(forKey: "prefs") as? [String: Any])?["sizes"] as? [Int] == [1, 2])
    #expect(session.focusedRow?.key == "prefs / sizes / [1]")

    // d removes an array's element, a top-level key, nothing else.
    screen.draw(session.handle(.character("d")))
    #expect(
      (writer.persistentValue(forKey: "prefs") as? [String: Any])?["sizes"] as? [Int] == [1])
    screen.draw(session.handle(.character("u")))
    for key: KeyPress in [.down, .character("d")] { screen.draw(session.handle(key)) }
    #expect(session.focusedRow?.key == "prefs / theme")
    #expect(session.state.message?.isError == true)
    #expect(session.state.message?.text.contains("top-level keys only") == true)
    #expect(writer.persistentValue(forKey: "prefs") != nil)
  }

  @Test func anotherWritersNestedChangeRedrawsOnlyItsRowsAndTheSelectionStays() throws {
    let (writer, domain, canvas, session, screen) = try show()
    for key: KeyPress in [.down, .enter, .down] { screen.draw(session.handle(key)) }
    #expect(session.focusedRow?.key == "prefs / sizes")
    try writer.write(["theme": "light", "sizes": [1, 2]], forKey: "prefs")
    screen.draw(Damage())
    let counts = (0..<domain.rowCount).map { screen.redrawCount(source: 0, row: $0) }
    #expect(counts == [0, 1, 0, 1, 0], "prefs and prefs / theme only")
    #expect(canvas.line(5).contains("~") && canvas.line(5).hasSuffix("light"))
    #expect(session.state.rowIndex == 2)

    try writer.write("new", forKey: "aaa")  // a key above: rows move, the selection follows
    screen.draw(Damage())
    #expect(session.focusedRow?.key == "prefs / sizes")
    try writer.write(nil, forKey: "prefs")  // the open key goes away with its children
    screen.draw(Damage())
    #expect((0..<domain.rowCount).map { domain.row(at: $0).key } == ["aaa", "age", "zeta"])
  }

  @Test func theSelectionFollowsItsPathWhereNamesRepeat() throws {
    let (suite, writer) = try TestPreferences.suite(["b": ["x": 1], "c": ["x": 2]])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (_, session, screen) = TestScreen.show(domain, rows: 14)
    for key: KeyPress in [.enter, .down, .down, .enter, .down] { screen.draw(session.handle(key)) }
    // b ▾, x, c ▾, x (focused)
    #expect(session.focusedRow?.key == "c / x")
    try writer.write(0, forKey: "a")
    screen.draw(Damage())
    #expect(session.focusedRow?.key == "c / x", "not the first row named x")
  }

  /// Issue 13, bug 5: a nested edit in a raw suite marked the parent row `~` ("another process
  /// changed it").
  @Test func aNestedEditDoesNotMarkItsContainerAsChangedElsewhere() throws {
    let (suite, writer) = try TestPreferences.suite(["prefs": ["theme": "dark"]])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (canvas, session, screen) = TestScreen.show(domain, rows: 10)
    for key: KeyPress in [.enter, .down, .enter, .character("\u{15}")] {
      screen.draw(session.handle(key))
    }
    for character in "light" { screen.draw(session.handle(.character(character))) }
    screen.draw(session.handle(.enter))
    #expect((writer.persistentValue(forKey: "prefs") as? [String: String])?["theme"] == "light")
    #expect(canvas.line(2).contains("│  prefs ▾"), "not ~: this session wrote it")
    #expect(canvas.line(3).contains("│    theme") && canvas.line(3).hasSuffix("light"))
  }
}
