import ObservableDefaultsCore
import SettingsEditor

/// The `log` verb: the history of a suite's changes (``ChangeHistory``).
enum LogVerb {
  /// The suite's changes, oldest first (only `key`'s when given), one line each; empty when
  /// there is no history (or it is turned off).
  ///
  /// - Throws: The error of reading the history file.
  static func run(suite: String, key: String?) throws -> String {
    guard let history = ChangeHistory.user else { return "" }
    return try history.entries(suite: suite, key: key)
      .map { ChangeHistory.text(of: $0, suite: suite) }.joined(separator: "\n")
  }
}
