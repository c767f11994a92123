import Foundation

/// The embedded container's file format: a property list
///
///     revision:   Int
///     generation: String (the container's identity; absent in files written before it existed)
///     records:  { key: { value: <property-list value> (absent for a removal),
///                        time: Int, counter: Int, device: String, revision: Int } }
///
/// The keys of `records` are exact keys: two that differ only in Unicode normalization are two
/// records (the reader gives such a dictionary as `[PropertyListKey: Any]`).
extension CloudContainerContents {
  private enum Field {
    static let revision = "revision"
    static let generation = "generation"
    static let records = "records"
    static let value = "value"
    static let time = "time"
    static let counter = "counter"
    static let device = "device"
  }

  /// Reads the contents from a container file's top-level dictionary (empty for an empty file).
  ///
  /// - Parameters:
  ///   - values: The file's top-level dictionary, in canonical form.
  ///   - file: The file, named in errors.
  /// - Throws: ``PropertyListError`` of kind `.malformed` when a field is missing or mistyped.
  init(propertyList values: [PropertyListKey: Any], file: URL) throws {
    guard !values.isEmpty else {
      self.init()
      return
    }
    func malformed(_ reason: String) -> PropertyListError {
      PropertyListError(file: file, kind: .malformed, reason: "not a cloud container: " + reason)
    }
    guard let revision = values[Field.revision] as? Int,
      let records = values[Field.records].flatMap(exactDictionary)
    else { throw malformed("no revision or records") }
    var entries: [PropertyListKey: Entry] = [:]
    for (key, fields) in records {
      guard let fields = fields as? [String: Any], let time = fields[Field.time] as? Int,
        let counter = fields[Field.counter] as? Int, let device = fields[Field.device] as? String,
        let stored = fields[Field.revision] as? Int
      else { throw malformed("bad record for \"\(key.string)\"") }
      let timestamp = CloudTimestamp(time: Int64(time), counter: Int64(counter), device: device)
      entries[key] = Entry(
        record: CloudRecord(value: fields[Field.value], timestamp: timestamp), revision: stored)
    }
    self.init(revision: revision, entries: entries)
    generation = values[Field.generation] as? String
  }

  /// The top-level dictionary of the container file.
  var propertyList: [PropertyListKey: Any] {
    let records = entries.mapValues { entry -> [String: Any] in
      var fields: [String: Any] = [
        Field.time: Int(entry.record.timestamp.time),
        Field.counter: Int(entry.record.timestamp.counter),
        Field.device: entry.record.timestamp.device,
        Field.revision: entry.revision,
      ]
      fields[Field.value] = entry.record.value
      return fields
    }
    var values: [PropertyListKey: Any] = [
      PropertyListKey(Field.revision): revision, PropertyListKey(Field.records): records,
    ]
    values[PropertyListKey(Field.generation)] = generation
    return values
  }
}
