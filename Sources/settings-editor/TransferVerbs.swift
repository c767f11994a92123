import Foundation
import ObservableDefaultsCore

/// The `export` and `import` verbs: a domain as an XML property list or JSON, like macOS
/// `defaults export`/`import` and `dconf dump`/`load`.
enum TransferVerbs {
  /// The domain's values as an XML property list, or JSON with `json` (see ``ExportEncoding``
  /// for the characters written as references or escapes, and those XML refuses).
  static func export(_ domain: Invocation.Domain, json: Bool) throws -> Data {
    let values = try DefaultsVerbs.values(of: domain)
    if json {
      let text = try JSONSerialization.data(
        withJSONObject: jsonCompatible(values), options: [.prettyPrinted, .sortedKeys])
      return ExportEncoding.json(text) + Data("\n".utf8)
    }
    return try ExportEncoding.xml(values)
  }

  /// Replaces the values of `suite` with those of `data` (read from `source`, a path or `-`)
  /// and waits for the file.
  ///
  /// - Throws: ``VerbError`` `.invalidValue` when `data` is not a property list (checked as a
  ///   suite file is: ``PropertyListFile/document(from:)``) or JSON object with a dictionary at
  ///   the top.
  static func `import`(_ data: Data, from source: String, into suite: String, json: Bool) throws {
    guard !data.isEmpty else { throw VerbError.invalid("the input is empty") }
    let values: [String: Any]
    if json {
      let root: Any
      do {
        root = try JSONSerialization.jsonObject(with: data)
      } catch {
        throw VerbError.invalid("the input is not JSON: \(error)")
      }
      guard let dictionary = root as? [String: Any] else {
        throw VerbError.invalid("the input's top level is not a dictionary")
      }
      values = dictionary
    } else {
      let url = URL(fileURLWithPath: source == "-" ? "/dev/stdin" : source)
      do {
        values = try PropertyListFile(url: url).document(from: data).values
      } catch let error as PropertyListError {
        throw VerbError.invalid("the input is not a property list with a dictionary at the top (\(error.reason))")
      }
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

  /// `value` with dates as ISO 8601 strings and data as Base64 strings.
  private static func jsonCompatible(_ value: Any) -> Any {
    switch value {
    case let date as Date: PropertyListScalarType.text(of: date) ?? ""
    case let data as Data: data.base64EncodedString()
    case let array as [Any]: array.map(jsonCompatible)
    case let dictionary as [String: Any]: dictionary.mapValues(jsonCompatible)
    default: value
    }
  }
}
