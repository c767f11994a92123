import Foundation
import ObservableDefaultsCore
import SettingsEditor

/// The `export` and `import` verbs: a domain as an XML property list or JSON, like macOS
/// `defaults export`/`import` and `dconf dump`/`load`.
enum TransferVerbs {
  /// The domain's values as an XML property list, or JSON with `json` (see ``JSONTransfer`` for
  /// the JSON form of dates and data, and ``ExportEncoding`` for the characters written as
  /// references or escapes, and those XML refuses).
  static func export(_ domain: Invocation.Domain, json: Bool) throws -> Data {
    // By exact key: keys that differ only in Unicode normalization are each exported.
    let values = try DefaultsVerbs.values(of: domain)
    if json { return ExportEncoding.json(try JSONTransfer.data(of: values)) }
    return try ExportEncoding.xml(values)
  }

  /// Replaces the values of `suite` with those of `data` (read from `source`, a path or `-`)
  /// and waits for the file.
  ///
  /// - Parameter file: the input's name for messages (`-` for standard input).
  /// - Throws: ``VerbError`` `.invalidValue` naming the file when `data` is empty or is not a
  ///   property list (checked as a suite file is: ``PropertyListFile/document(from:)``), or JSON
  ///   object (see ``JSONTransfer``), with a dictionary at the top.
  static func `import`(_ data: Data, file: String, into suite: String, json: Bool) throws {
    guard !data.isEmpty else { throw VerbError.invalid("\(file): the input is empty") }
    // By exact key: keys that differ only in Unicode normalization are two keys of the suite.
    let values: [PropertyListKey: Any]
    if json {
      values = try JSONTransfer.values(from: data, file: file)
    } else {
      let url = URL(fileURLWithPath: file == "-" ? "/dev/stdin" : file)
      do {
        values = try PropertyListFile(url: url).document(from: data).values
      } catch let error as PropertyListError {
        throw VerbError.invalid(
          "\(file): not a property list with a dictionary at the top (\(error.reason))")
      }
    }
    // Every value is checked against the suite's published schemas before any is written.
    let schemas = PublishedSchemas()
    for (key, value) in values.sorted(by: { $0.key < $1.key }) {
      try SchemaVerbs.check(value, forKey: key.string, in: suite, schemas: schemas)
    }
    let defaults = try DefaultsVerbs.suiteDefaults(suite)
    if let error = defaults.lastError { throw error }
    let stored = defaults.exactPersistentValues
    // A key an administrator made mandatory is not changed: refused before anything is written.
    try SystemLayerFiles(suite: suite).refuse(
      Set(stored.keys).union(values.keys).filter {
        !propertyListValuesEqual(stored[$0], values[$0])
      })
    for key in stored.keys.sorted() where values[key] == nil {
      try defaults.write(nil, forKey: key.string)
    }
    // Only the values that differ are written: one written again would be encoded anew, and an
    // XML suite's entry would lose the form of its text (entities, a one-line array).
    for (key, value) in values where !propertyListValuesEqual(stored[key], value) {
      do {
        try defaults.write(value, forKey: key.string)
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
