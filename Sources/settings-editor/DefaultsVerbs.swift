import Foundation
import ObservableDefaultsCore

/// The `read`, `write` and `delete` verbs, in the form of macOS `defaults`.
enum DefaultsVerbs {
  /// A verb that could not do its job; the message goes to standard error.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Prints the whole domain, or the value of `key`.
  static func read(_ domain: Invocation.Domain, key: String?) throws -> String {
    let values = try values(of: domain)
    guard let key else { return PropertyListText.render(values) }
    guard let value = values[key] else {
      throw Failure(description: "the key \(key) does not exist in \(name(of: domain))")
    }
    return PropertyListText.renderValue(value)
  }

  /// Stores `value` under `key` in `suite` and waits until it is in the file.
  static func write(suite: String, key: String, value: Invocation.TypedArgument) throws {
    let defaults = try suiteDefaults(suite)
    try defaults.write(try typedValue(value), forKey: key)
    try defaults.flush()
  }

  /// Removes `key` from `suite` and waits until the file no longer has it.
  static func delete(suite: String, key: String) throws {
    let defaults = try suiteDefaults(suite)
    guard defaults.persistentValue(forKey: key) != nil else {
      throw Failure(description: "the key \(key) does not exist in suite \(suite)")
    }
    try defaults.write(nil, forKey: key)
    try defaults.flush()
  }

  private static func values(of domain: Invocation.Domain) throws -> [String: Any] {
    switch domain {
    case .file(let path):
      guard let document = try PropertyListFile(url: URL(fileURLWithPath: path)).read() else {
        throw Failure(description: "no such file: \(path)")
      }
      return document.values
    case .suite(let suite):
      guard FileManager.default.fileExists(atPath: PreferencesDirectory.fileURL(forSuite: suite).path) else {
        throw Failure(description: "the suite \(suite) does not exist in \(PreferencesDirectory.url.path)")
      }
      let defaults = try suiteDefaults(suite)
      if let error = defaults.lastError { throw error }
      return defaults.persistentDomain(forName: suite) ?? [:]
    }
  }

  private static func suiteDefaults(_ suite: String) throws -> PropertyListDefaults {
    guard !suite.isEmpty, let defaults = PropertyListDefaults(suiteName: suite) else {
      throw Failure(description: "\"\(suite)\" is not a suite name")
    }
    return defaults
  }

  private static func typedValue(_ argument: Invocation.TypedArgument) throws -> Any {
    let text = argument.text
    switch argument.flag {
    case "-int", "-integer":
      guard let number = Int(text) else { throw Failure(description: "\"\(text)\" is not an integer") }
      return number
    case "-float":
      guard let number = Double(text), number.isFinite else { throw Failure(description: "\"\(text)\" is not a number") }
      return number
    case "-bool", "-boolean":
      switch text.lowercased() {
      case "true", "yes", "1": return true
      case "false", "no", "0": return false
      default: throw Failure(description: "\"\(text)\" is not a boolean (use true, false, yes, no, 1 or 0)")
      }
    default:
      return text
    }
  }

  private static func name(of domain: Invocation.Domain) -> String {
    switch domain {
    case .suite(let suite): "suite \(suite)"
    case .file(let path): path
    }
  }
}
