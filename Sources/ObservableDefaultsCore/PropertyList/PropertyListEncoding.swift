package import Foundation

/// Serializes documents: binary ones with ``BinaryPropertyListWriter``, XML ones with
/// ``XMLPropertyListWriter``.
///
/// The profile of a flush showed Foundation's encoder (Codable boxing and the uniquing hash of
/// every object, about 17,000 instructions per key) as 99 % of its cost; both writers write the
/// canonical values directly. Binary files store each distinct string, number, date and data
/// once, as Apple's writer does, so a file does not grow when one value changes.
package enum PropertyListEncoding {
  /// The bytes of `document` in its format (`.binary`, else `.xml`).
  ///
  /// XML is written by ``XMLPropertyListWriter``: every dictionary's keys in CoreFoundation's
  /// order, and a carriage return as the character reference `&#13;` (which reads back as a
  /// carriage return everywhere).
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when a value is not a property-list value, or
  ///   memory for the text runs out.
  package static func data(of document: PropertyListDocument) throws -> Data {
    if document.format == .binary { return try BinaryPropertyListWriter.data(of: document.values) }
    return try XMLPropertyListWriter.data(of: document.values)
  }
}
