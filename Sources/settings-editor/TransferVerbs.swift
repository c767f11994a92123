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
    let entries = Array(values)
    for index in PropertyListKey.order(of: entries.map(\.key)) {
      let (key, value) = entries[index]
      try SchemaVerbs.check(value, forKey: key.string, in: suite, schemas: schemas)
    }
    // The suite's values now, as its file holds them (none when it does not exist yet).
    let file = PropertyListFile(url: try DefaultsVerbs.fileURL(of: .suite(suite)))
    let stored = try file.readingAfterWriters { try file.read() }?.values ?? [:]
    // One write of every change, as `write` makes one: a value the file cannot take (a
    // character or date an XML suite cannot hold, a limit of its readers) refuses the whole
    // import and leaves the file as it was. Only the values that differ are written: one written
    // again would be encoded anew, and an XML suite's entry would lose the form of its text
    // (entities, a one-line array). A key an administrator made mandatory is refused the same way.
    var changes: [PropertyListKey: Any?] = [:]
    for key in stored.keys where values[key] == nil { changes.updateValue(nil, forKey: key) }
    for (key, value) in values where !propertyListValuesEqual(stored[key], value) {
      changes.updateValue(value, forKey: key)
    }
    guard !changes.isEmpty else { return }
    try DefaultsVerbs.store(changes, in: .suite(suite))
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
