#if canImport(Glibc)
  import Glibc
#endif

/// Environment variables read one by one with `getenv(3)`: `ProcessInfo.environment` copies
/// the whole environment into a dictionary at each call, too slow for a write's path.
package enum ProcessEnvironment {
  /// The values of `names` that are set.
  package static func values(of names: [String]) -> [String: String] {
    var values: [String: String] = [:]
    for name in names {
      if let value = getenv(name) { values[name] = String(cString: value) }
    }
    return values
  }
}
