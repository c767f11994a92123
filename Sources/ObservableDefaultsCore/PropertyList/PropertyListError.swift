public import Foundation

/// A failure to read, parse or write a property-list file, or a value that cannot be stored in one.
///
/// Its ``description`` names the file (with the home folder shown as `~`) and the reason, e.g.
/// `~/.config/x.plist is not a valid property list (the root is a String, not a dictionary); it
/// was left unchanged`.
public struct PropertyListError: Error, CustomStringConvertible, Equatable {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// The file exists but could not be read (permissions, I/O error).
    case unreadable
    /// The file does not parse as a property list, or its root is not a dictionary. Such a file
    /// is never replaced or removed.
    case malformed
    /// The new file could not be written (folder not writable, disk full, lock failed).
    case unwritable
    /// The value given for `key` is not a property-list value.
    case invalidValue(key: String)
    /// `key` is mandatory: an administrator set its value in ``PropertyListError/file`` (a
    /// mandatory file of a system folder), so the write was refused and the value stays.
    /// Apple's `UserDefaults` documents the same for managed keys: "Apps can't change the value
    /// of managed keys" (`objectIsForced(forKey:)`).
    case mandatory(key: String)
  }

  /// The property-list file concerned.
  public let file: URL
  /// What went wrong.
  public let kind: Kind
  /// The detail: the parser's or the system's message, or the type that was refused.
  public let reason: String
  /// Whether the write was refused because its file would pass a limit of its readers (its
  /// size, or what it expands to when read): a write of several keys refused so may fit in
  /// parts (see ``FileContents/refusal(of:changing:_:)``).
  package internal(set) var passesReadersLimit = false

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - file: The property-list file concerned.
  ///   - kind: What went wrong.
  ///   - reason: The detail, for people.
  public init(file: URL, kind: Kind, reason: String) {
    self.file = file
    self.kind = kind
    self.reason = reason
  }

  /// Whether `left` and `right` name the same file, kind and reason.
  public static func == (left: Self, right: Self) -> Bool {
    (left.file, left.kind, left.reason) == (right.file, right.kind, right.reason)
  }

  /// `error` itself when it is a ``PropertyListError``, else a new one of `kind` describing it.
  init(wrapping error: any Error, file: URL, kind: Kind) {
    self =
      error as? PropertyListError
      ?? PropertyListError(file: file, kind: kind, reason: describe(error))
  }

  /// One line for people, naming the file and the reason.
  public var description: String {
    let name = Self.displayPath(of: file)
    switch kind {
    case .unreadable:
      return "\(name) could not be read (\(reason))"
    case .malformed:
      return "\(name) is not a valid property list (\(reason)); it was left unchanged"
    case .unwritable:
      return "\(name) could not be written (\(reason))"
    case .invalidValue(let key):
      return "cannot store \"\(key)\" in \(name): \(reason)"
    case .mandatory(let key):
      return "cannot store \"\(key)\": it is mandatory, set by \(name) (\(reason))"
    }
  }

  /// The path of `file` with the home folder abbreviated to `~`.
  private static func displayPath(of file: URL) -> String {
    let path = file.path
    let home = HomeFolder.url(environment: ProcessEnvironment.values(of: ["HOME"])).path
    guard !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
    return "~" + path.dropFirst(home.count)
  }
}
