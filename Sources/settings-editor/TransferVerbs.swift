import Foundation
import ObservableDefaultsCore

/// The `export` and `import` verbs: a domain as an XML property list or JSON, like macOS
/// `defaults export`/`import` and `dconf dump`/`load`.
enum TransferVerbs {
  /// The domain's values as an XML property list, or JSON with `json` (see ``JSONTransfer``).
  static func export(_ domain: Invocation.Domain, json: Bool) throws -> Data {
    let values = try DefaultsVerbs.values(of: domain)
    if json { return try JSONTransfer.data(of: values) }
    return try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
  }

  /// Replaces the values of `suite` with those of `data` and waits for the file.
  ///
  /// - Parameter file: the input's name for messages (`-` for standard input).
  /// - Throws: ``VerbError`` `.invalidValue` naming the file when `data` is not a property list
  ///   (or JSON object, see ``JSONTransfer``) with a dictionary at the top.
  static func `import`(_ data: Data, file: String, into suite: String, json: Bool) throws {
    let values: [String: Any]
    if json {
      values = try JSONTransfer.values(from: data, file: file)
    } else {
      let root: Any
      do {
        root = try PropertyListSerialization.propertyList(from: data, format: nil)
      } catch {
        throw VerbError.invalid("\(file): not a property list (XML or binary)")
      }
      guard let dictionary = root as? [String: Any] else {
        throw VerbError.invalid("\(file): the top level is not a dictionary")
      }
      values = dictionary
    }
    let defaults = try DefaultsVerbs.suiteDefaults(suite)
    if let error = defaults.lastError { throw error }
    for key in defaults.persistentDomain(forName: suite)?.keys.sorted() ?? []
    where values[key] == nil {
      try defaults.write(nil, forKey: key)
    }
    for (key, value) in values {
      do {
        try defaults.write(value, forKey: key)
      } catch let error as PropertyListError {
        throw VerbError.invalid(error.description)
      }
    }
    try defaults.flush()
  }

  /// The bytes of the file at `path`, or of standard input for `-`.
  ///
  /// - Throws: ``VerbError`` `.failure` naming the file when it cannot be read.
  static func input(_ path: String) throws(VerbError) -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .failure("cannot read \(path)")
    }
    return data
  }
}
