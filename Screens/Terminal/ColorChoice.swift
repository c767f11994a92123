/// When the editor uses colour (`--color=auto|always|never`); every cue is also drawn with
/// attributes (bold, reverse, underline, a marker), so nothing is lost without it.
public enum ColorChoice: String, Sendable, CaseIterable {
  /// Colour when the terminal has it and `NO_COLOR` is not set (https://no-color.org).
  case auto
  /// Colour whenever the terminal has it, even with `NO_COLOR`.
  case always
  /// No colour.
  case never

  /// Whether to start colour, given the environment; the terminal's own support is checked
  /// when curses starts.
  func usesColor(environment: [String: String]) -> Bool {
    switch self {
    case .always: true
    case .never: false
    case .auto: (environment["NO_COLOR"] ?? "").isEmpty
    }
  }
}
