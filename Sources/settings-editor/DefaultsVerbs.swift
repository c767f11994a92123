import Foundation
import ObservableDefaultsCore

/// The `read`, `write`, `delete` and `domains` verbs, in the form of macOS `defaults`.
enum DefaultsVerbs {
  /// Prints the whole domain, or the value of `key`.
  static func read(_ domain: Invocation.Domain, key: String?) throws -> String {
    let values = try values(of: domain)
    guard let key else { return PropertyListText.render(values) }
    guard let value = values[key] else {
      throw VerbError.failure("the key \(key) does not exist in \(name(of: domain))")
    }
    return PropertyListText.renderValue(value)
  }

  /// Stores the value `words` stand for under `key` and waits until it is in the file.
  static func write(_ domain: Invocation.Domain, key: String, words: [String]) throws {
    try store(TypedValueWords.value(of: words), forKey: key, in: domain)
  }

  /// Removes `key` and waits until the file no longer has it.
  static func delete(_ domain: Invocation.Domain, key: String) throws {
    guard try values(of: domain)[key] != nil else {
      throw VerbError.failure("the key \(key) does not exist in \(name(of: domain))")
    }
    try store(nil, forKey: key, in: domain)
  }

  /// The suite names, one per line (unprintable characters escaped).
  static func domains() -> String {
    PreferencesDirectory.suiteNames().map(TerminalText.escaped).joined(separator: "\n")
  }

  /// The stored values of a suite or file (registered defaults excluded).
  ///
  /// - Throws: ``VerbError`` `.failure` when it does not exist; ``PropertyListError``.
  static func values(of domain: Invocation.Domain) throws -> [String: Any] {
    switch domain {
    case .file(let path):
      guard let document = try PropertyListFile(url: URL(fileURLWithPath: path)).read() else {
        throw VerbError.failure("no such file: \(path)")
      }
      return document.values
    case .suite(let suite):
      guard
        FileManager.default.fileExists(atPath: PreferencesDirectory.fileURL(forSuite: suite).path)
      else {
        throw VerbError.failure(
          "the suite \(suite) does not exist in \(PreferencesDirectory.url.path)")
      }
      let defaults = try suiteDefaults(suite)
      if let error = defaults.lastError { throw error }
      return defaults.persistentDomain(forName: suite) ?? [:]
    }
  }

  /// The store of a suite.
  static func suiteDefaults(_ suite: String) throws(VerbError) -> PropertyListDefaults {
    guard !suite.isEmpty, let defaults = PropertyListDefaults(suiteName: suite) else {
      throw .usage(nil, "\"\(suite)\" is not a suite name")
    }
    return defaults
  }

  /// Sets (nil: removes) one key of a suite or a file in the file itself (its failure is
  /// thrown once, for the caller to report; no background write reports it again).
  private static func store(_ value: Any?, forKey key: String, in domain: Invocation.Domain)
    throws
  {
    let url: URL
    switch domain {
    case .suite(let suite):
      url = try suiteDefaults(suite).fileURL
    case .file(let path):
      url = URL(fileURLWithPath: path)
    }
    _ = try PropertyListFile(url: url).apply([key: value.map(PropertyListChange.set) ?? .remove])
  }

  private static func name(of domain: Invocation.Domain) -> String {
    switch domain {
    case .suite(let suite): "suite \(suite)"
    case .file(let path): path
    }
  }
}
