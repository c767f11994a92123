import Foundation

/// A private preferences folder for this test process: `XDG_CONFIG_HOME` points at it before
/// any suite is opened, so tests never touch the user's settings.
enum TestPreferences {
  /// The folder (created once per process).
  static let folder: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("editor-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    setenv("XDG_CONFIG_HOME", url.path, 1)
    return url
  }()

  /// A suite name no other test uses.
  static func uniqueSuite(_ label: String = #function) -> String {
    _ = folder
    return "editor.tests.\(label.prefix(while: { $0 != "(" })).\(UUID().uuidString.prefix(8))"
  }

  /// The shared fixture property lists (`../shared/fixtures/plists` beside the package).
  static let fixtures: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/fixtures/plists")
}
