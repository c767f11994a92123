package import Foundation

/// Serializes documents: binary ones with ``BinaryPropertyListWriter``, XML ones with
/// Foundation's `PropertyListEncoder`.
///
/// The profile of a flush showed Foundation's encoder (Codable boxing and the uniquing hash of
/// every object, about 17,000 instructions per key) as 99 % of its cost; the binary writer
/// writes the canonical values directly. Both store each distinct string, number, date and data
/// of a binary file once, as Apple's writer does, so a file does not grow when one value changes.
package enum PropertyListEncoding {
  /// The bytes of `document` in its format (`.binary`, else `.xml`).
  ///
  /// In XML, a carriage return (which Foundation's encoder writes raw, and every XML reader turns
  /// into a line feed: XML 1.0 §2.11) is written as the character reference `&#13;`, which reads
  /// back as a carriage return everywhere.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` (binary) or `EncodingError` (XML) when a value
  ///   is not a property-list value; ``PropertyListEncodingFailure`` (XML) for keys that differ
  ///   only in Unicode normalization when one of them holds a character XML escapes.
  package static func data(of document: PropertyListDocument) throws -> Data {
    if document.format == .binary { return try BinaryPropertyListWriter.data(of: document.values) }
    // The encoder keys by `String`, which holds one of several keys that differ only in Unicode
    // normalization: it writes the first of each, and the others are added to its text.
    // Nested dictionaries keyed by exact keys go through placeholders the same way.
    var keyed: [String: Any] = [:]
    keyed.reserveCapacity(document.values.count)
    var others: [PropertyListKey: PropertyListChange] = [:]
    var placeholders = ExactKeyPlaceholders()
    for (key, value) in document.values {
      if keyed.index(forKey: key.string) == nil {
        keyed[key.string] = placeholders.encodable(value)
      } else {
        others[key] = .set(value)
      }
    }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    let text = try placeholders.restoring(
      in: referencingCarriageReturns(in: try encoder.encode(EncodableValue(keyed))),
      form: ExactKeyPlaceholders.xmlKey)
    guard !others.isEmpty else { return text }
    guard let edited = try XMLPropertyListEdit.applying(others, to: text) else {
      throw PropertyListEncodingFailure(
        reason: "keys that differ only in Unicode normalization hold an XML entity "
          + "(\(others.keys.map(\.string).sorted().joined(separator: ", ")))")
    }
    return edited.text
  }

  /// `text` with each carriage return replaced by `&#13;` (the encoder writes line feeds between
  /// elements, so a carriage return is always inside a key or string). Found with `memchr`: a
  /// whole suite's text is searched at each flush that encodes it.
  private static func referencingCarriageReturns(in text: Data) -> Data {
    let returns: [Int] = text.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return [] }
      var found: [Int] = []
      var offset = 0
      while let match = memchr(base + offset, 0x0D, bytes.count - offset) {
        found.append(base.distance(to: UnsafeRawPointer(match)))
        offset = found[found.count - 1] + 1
      }
      return found
    }
    guard !returns.isEmpty else { return text }
    var result = Data(capacity: text.count + 4 * returns.count)
    var start = 0
    for offset in returns {
      result.append(text[(text.startIndex + start)..<(text.startIndex + offset)])
      result.append(contentsOf: "&#13;".utf8)
      start = offset + 1
    }
    result.append(text[(text.startIndex + start)...])
    return result
  }
}

/// A canonical property-list value (see ``PropertyListDocument``) as an `Encodable`.
private struct EncodableValue: Encodable {
  let value: Any

  init(_ value: Any) {
    self.value = value
  }

  func encode(to encoder: any Encoder) throws {
    switch value {
    case let dictionary as [String: Any]:
      var container = encoder.container(keyedBy: Key.self)
      for (key, element) in dictionary {
        try container.encode(EncodableValue(element), forKey: Key(key))
      }
    case let array as [Any]:
      var container = encoder.unkeyedContainer()
      for element in array { try container.encode(EncodableValue(element)) }
    default:
      try encodeScalar(to: encoder)
    }
  }

  private func encodeScalar(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    // Exact types first (canonical values are never subclasses or bridged numbers).
    let kind = type(of: value)
    if kind == String.self, let string = value as? String { return try container.encode(string) }
    if kind == Int.self, let integer = value as? Int { return try container.encode(integer) }
    if kind == Bool.self, let boolean = value as? Bool { return try container.encode(boolean) }
    if kind == Double.self, let real = value as? Double { return try container.encode(real) }
    if kind == Date.self, let date = value as? Date { return try container.encode(date) }
    if kind == Data.self, let data = value as? Data { return try container.encode(data) }
    if kind == UInt64.self, let unsigned = value as? UInt64 {
      return try container.encode(unsigned)
    }
    guard let canonical = PropertyListValue.normalized(value), type(of: canonical) != kind else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath, debugDescription: "\(kind) is not a property-list value"))
    }
    try EncodableValue(canonical).encode(to: encoder)
  }

  private struct Key: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }
}
