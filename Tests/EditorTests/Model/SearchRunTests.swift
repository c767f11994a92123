import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// Search off the input path, counted: a search looks at rows a slice at a time, the next key
/// stops it where it was, every key typed meanwhile is kept, and a large suite's rows are
/// searched in their keys and values without building a row.
@MainActor
@Suite struct SearchRunTests {
  /// A suite of `count` keys `key-100000`… holding `value <n>`, and its rows.
  private func largeSuite(_ count: Int) throws -> SuiteRows {
    let suite = TestPreferences.uniqueSuite()
    let values = Dictionary(
      uniqueKeysWithValues: (0..<count).map { ("key-\(100_000 + $0)", "value \($0)") })
    try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
      .write(to: TestPreferences.file(ofSuite: suite))
    return SuiteRows(suite: suite, folder: TestPreferences.folder)
  }

  @Test func theNextKeyStopsARunningSearchWhereItWas() throws {
    let rows = try largeSuite(10_000)
    let session = EditorSession(sources: [rows])
    _ = session.handle(.character("/"))
    _ = session.handle(.character("v"))
    #expect(session.isSearching, "a key starts the search; nothing is looked at yet")
    #expect(session.rowsSearched == 0)
    // One slice with no time left looks at one batch of rows, then gives the loop back.
    _ = session.continueSearch(for: .zero)
    #expect(session.rowsSearched == SearchRun.rowsBetweenChecks)
    #expect(session.isSearching)
    _ = session.handle(.character("A"))
    #expect(session.searchesCancelled == 1, "the next key stopped the search for \"v\"")
    #expect(session.rowsSearched == SearchRun.rowsBetweenChecks, "and it looked no further")
    session.finishSearch()
    #expect(session.rowsSearched == SearchRun.rowsBetweenChecks + 10_000)
    #expect(session.matches().count == 10_000, "every value holds \"va\", in any case")
    #expect(session.searchesCancelled == 1)
  }

  @Test func noKeyIsDroppedWhileSearchesRun() throws {
    let rows = try largeSuite(10_000)
    let session = EditorSession(sources: [rows])
    _ = session.handle(.character("/"))
    let query = "VALUE 9999"
    for character in query {
      _ = session.handle(.character(character))
      _ = session.continueSearch(for: .zero)
    }
    #expect(session.searchesCancelled == query.count - 1)
    guard case .searching(let field, _) = session.state.mode else {
      Issue.record("the search field closed: \(session.state.mode)")
      return
    }
    #expect(field.text == query, "every key typed while searches ran is in the field")
    session.finishSearch()
    #expect(session.matches() == [EditorState.Focus(source: 0, row: 9_999)])
    #expect(session.state.rowIndex == 9_999, "the focus is on the match")
    _ = session.handle(.enter)
    #expect(session.state.message?.text == "1 match(es) for \"VALUE 9999\"; n/N step")
  }

  @Test func aLargeSuiteIsSearchedWithoutBuildingItsRows() throws {
    let rows = try largeSuite(10_000)
    let session = EditorSession(sources: [rows])
    session.press(.character("/"), .character("k"), .character("E"), .character("y"))
    #expect(session.matches().count == 10_000)
    // The search read keys and values: no row was built.
    #expect(rows.rowsBuilt == 0)
  }

  @Test func aKeptSearchGoesOnAndSaysWhenItEnds() throws {
    let rows = try largeSuite(10_000)
    let session = EditorSession(sources: [rows])
    for key: KeyPress in [.character("/"), .character("5"), .enter] { _ = session.handle(key) }
    #expect(session.state.mode == .browsing)
    #expect(session.state.message?.text == "Searching… 0 match(es) so far for \"5\"")
    session.finishSearch()
    // 5, 15, …: every index with a 5 in it, as key and value.
    let expected = (0..<10_000).filter { "\($0)".contains("5") || "\(100_000 + $0)".contains("5") }
    #expect(session.matches().count == expected.count)
    #expect(session.state.message?.text == "\(expected.count) match(es) for \"5\"; n/N step")
  }

  /// Enter typed before the first match is found keeps the search, and the focus still goes to
  /// that match when it is found; a key pressed after Enter means the user moved on.
  @Test func enterBeforeTheFirstMatchStillTakesTheFocusThereUnlessAKeyFollows() throws {
    let rows = try largeSuite(10_000)
    let session = EditorSession(sources: [rows])
    for key: KeyPress in [.character("/"), .character("9"), .character("9"), .enter] {
      _ = session.handle(key)
    }
    #expect(session.state.rowIndex == 0, "nothing was looked at yet")
    session.finishSearch()
    #expect(session.state.rowIndex == 99, "value 99 is the first match")

    for key: KeyPress in [.character("/"), .character("7"), .character("7"), .enter, .down] {
      _ = session.handle(key)
    }
    session.finishSearch()
    #expect(session.state.rowIndex == 100, "the focus stays where the user moved it")
    #expect(session.matches().count > 0)
  }

  @Test func caseIsFoldedWithoutALocale() {
    #expect(SearchPattern("ABC").matches("xxabcxx"))
    #expect(SearchPattern("abc").matches("XXABCXX"))
    #expect(!SearchPattern("abd").matches("abc"))
    #expect(SearchPattern("ÉTÉ").matches("un été"), "a query that is not ASCII is lowercased")
    #expect(!SearchPattern("").matches("anything"))
    #expect(!SearchPattern("long query").matches("short"))
  }
}
