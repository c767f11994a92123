import Testing

@testable import SettingsEditor

extension EditorSession {
  /// Handles `keys` in order, as the screen would (without drawing), each followed by the
  /// search it started run to its end (the loop does that when no key follows).
  func press(_ keys: KeyPress...) {
    for key in keys {
      _ = handle(key)
      finishSearch()
    }
  }

  /// Runs the search that runs to its end (the loop does, a slice at a time, between keys).
  func finishSearch() {
    _ = continueSearch(for: .seconds(3600))
  }

  /// Focuses the row named `name` of the current source.
  func focus(_ name: String) throws {
    let source = try #require(currentSource)
    state.rowIndex = try #require((0..<source.rowCount).first { source.row(at: $0).name == name })
  }
}
