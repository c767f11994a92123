package import Foundation

/// The user's home folder and the XDG base folders under it, by the rules of the XDG Base
/// Directory specification (https://specifications.freedesktop.org/basedir-spec/latest/):
/// `$XDG_CONFIG_HOME` and `$XDG_DATA_HOME` count only when set to an absolute path; otherwise
/// `$HOME/.config` and `$HOME/.local/share`.
package enum HomeFolder {
  /// `$HOME` when it is an absolute path (as Foundation's `NSHomeDirectory()` reads it), else
  /// the password database's home folder of the user.
  package static func url(environment: [String: String]) -> URL {
    if let home = environment["HOME"], home.hasPrefix("/") {
      return URL(fileURLWithPath: home, isDirectory: true)
    }
    return FileManager.default.homeDirectoryForCurrentUser
  }

  /// `$<variable>` when it is an absolute path, else `<home>/<fallback>`.
  package static func baseFolder(
    _ variable: String, fallback: String, environment: [String: String]
  ) -> URL {
    if let value = environment[variable], value.hasPrefix("/") {
      return URL(fileURLWithPath: value, isDirectory: true)
    }
    return url(environment: environment).appendingPathComponent(fallback, isDirectory: true)
  }
}
