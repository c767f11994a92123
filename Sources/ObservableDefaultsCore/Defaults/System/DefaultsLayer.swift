public import Foundation

/// Where the value a suite gives for a key comes from: one of the layers ``PropertyListDefaults``
/// reads, highest first.
///
/// The order is: the command line (`-key value`, Foundation's `NSArgumentDomain`) → a mandatory
/// value an administrator set → the user's suite file → a system-wide default an administrator
/// or a distribution set → a default registered by `register(defaults:)` → (for a settings
/// object's property) the declaration's default. Apple's order is the same with forced (managed)
/// preferences in place of mandatory values and the global domain in place of system-wide
/// defaults (Apple's "Preferences and Settings Programming Guide", "The Search Order for
/// Preferences"). See ``PropertyListDefaults`` for the files.
public enum DefaultsLayer: Sendable, Equatable, CustomStringConvertible {
  /// A `-key value` pair of the process's command line.
  case commandLine
  /// A mandatory value: `file` is `<folder of $XDG_CONFIG_DIRS>/ObservableDefaults/mandatory/
  /// <suite>.plist`. The user cannot change it.
  case mandatory(file: URL)
  /// The user's suite file, `file`.
  case user(file: URL)
  /// A system-wide default: `file` is `<folder of $XDG_CONFIG_DIRS>/<suite>.plist`.
  case system(file: URL)
  /// A default registered by `register(defaults:)` in this process.
  case registered

  /// The layer's name, as `settings-editor read --source` prints it: `command line`,
  /// `mandatory`, `user`, `system` or `registered`.
  public var description: String {
    switch self {
    case .commandLine: "command line"
    case .mandatory: "mandatory"
    case .user: "user"
    case .system: "system"
    case .registered: "registered"
    }
  }

  /// The file the value is read from, nil for the command line and registered defaults.
  public var file: URL? {
    switch self {
    case .mandatory(let file), .user(let file), .system(let file): file
    case .commandLine, .registered: nil
    }
  }
}
