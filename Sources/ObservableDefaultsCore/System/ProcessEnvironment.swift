#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Environment variables of this process, read one by one with `getenv(3)` at each call: the one
/// way the package's modules and the editor read the environment.
///
/// `ProcessInfo.processInfo.environment` copies every variable of the process into a new
/// dictionary at each call: six calls made a sixth of a minimal settings program's start
/// (callgrind of `minimal-defaults`), and it was too slow for a write's path. Both read the
/// process's `environ` as it is at the call.
@usableFromInline
package enum ProcessEnvironment {
  /// The value of the variable `name`, or nil when it is not set.
  package static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The variables among `names` that are set, by name: for the functions that take an
  /// environment as a dictionary (so tests can give one).
  package static func values(of names: [String]) -> [String: String] {
    var values: [String: String] = [:]
    for name in names { values[name] = value(name) }
    return values
  }

  /// Every variable of the process, by name (a name set twice keeps its first value, the one
  /// `getenv` returns): for a child's environment and the public functions that take an
  /// environment as a dictionary, whose default this is. A copy, made at each call: read single
  /// variables with ``value(_:)``.
  @usableFromInline
  package static var all: [String: String] {
    var values: [String: String] = [:]
    var entry = environ
    while let pair = entry.pointee {
      let text = String(cString: pair)
      if let equals = text.firstIndex(of: "="), values[String(text[..<equals])] == nil {
        values[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return values
  }
}
