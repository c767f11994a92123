import Foundation

/// The readers of text property lists behind one call: XML (``XMLPropertyListScanner``) and
/// OpenStep (``OpenStepPropertyListReader``), each one pass that checks the text and builds its
/// values by exact key, after a conversion to UTF-8 (``PropertyListTextEncoding``). Nothing is
/// handed to Foundation's parser, whose `String`-keyed dictionaries merge keys that differ only
/// in Unicode normalization.
enum PropertyListText {
  /// What reading a text property list gives.
  struct Reading {
    /// The root value; a top dictionary is a `[PropertyListKey: Any]`.
    var root: Any
    /// `.xml` or `.openStep`.
    var format: PropertyListSerialization.PropertyListFormat
    /// The entries of the top dictionary of an XML file in the plain form (when asked for).
    var entries: PropertyListEntries?
  }

  /// Reads `data`, a text property list in any encoding the readers take.
  ///
  /// - Parameter indexing: Whether to find the entries of an XML file's top dictionary too.
  /// - Throws: ``PropertyListRejection`` naming what is wrong and its line.
  static func read(_ data: Data, indexing: Bool) throws(PropertyListRejection) -> Reading {
    try data.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
      guard let converted = try PropertyListTextEncoding.utf8(converting: bytes) else {
        return try read(utf8: bytes, indexing: indexing)
      }
      // Entries are places in the file's own bytes: none for converted text.
      return try converted.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
        try read(utf8: bytes, indexing: false)
      }
    }
  }

  private static func read(utf8 bytes: UnsafeRawBufferPointer, indexing: Bool)
    throws(PropertyListRejection) -> Reading
  {
    guard XMLPropertyListScanner.looksLikeXML(bytes) else {
      var reader = OpenStepPropertyListReader(bytes: bytes, limits: .preferences)
      return Reading(root: try reader.root(), format: .openStep, entries: nil)
    }
    var scanner = XMLPropertyListScanner(
      bytes: bytes, limits: .preferences, building: true, indexing: indexing)
    let document = try scanner.document()
    return Reading(
      root: document.root, format: .xml,
      entries: document.topDictionary.flatMap { XMLPropertyListEntries.entries(of: $0, in: bytes) }
    )
  }
}
