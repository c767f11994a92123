import Testing

@testable import SettingsEditor

extension EditorSession {
  /// Handles `keys` in order, as the screen would (without drawing).
  func press(_ keys: KeyPress...) {
    for key in keys { _ = handle(key) }
  }

  /// Focuses the row named `name` of the current source.
  func focus(_ name: String) throws {
    let source = try #require(currentSource)
    state.rowIndex = try #require((0..<source.rowCount).first { source.row(at: $0).name == name })
  }
}
