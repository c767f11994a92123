/// Why ``SettingsEditor/run()`` could not show the editor.
public enum SettingsEditorError: Error, Equatable, CustomStringConvertible {
  /// Standard input or output is not a terminal (a pipe, a file, a CI log).
  case notATerminal
  /// The terminal type (`TERM`, given here) is missing, `dumb`, or unknown to terminfo.
  case unsupportedTerminal(String)
  /// The event loop's wake-up pipe could not be made (the system's reason, given here: most
  /// likely no file descriptor left).
  case noWakeUpPipe(String)
  /// ncurses, which the editor draws with and loads when it first draws, cannot be loaded (why,
  /// naming the package to install, given here).
  case cursesUnavailable(String)

  /// One line for the user, such as `the editor cannot draw on this terminal (TERM=dumb)`.
  public var description: String {
    switch self {
    case .notATerminal:
      "the editor needs a terminal on standard input and output"
    case .unsupportedTerminal(let type):
      "the editor cannot draw on this terminal (TERM=\(type.isEmpty ? "unset" : type))"
    case .noWakeUpPipe(let reason):
      "the editor cannot make its event loop's pipe: \(reason)"
    case .cursesUnavailable(let reason):
      "the editor cannot draw: \(reason)"
    }
  }
}
