package import Foundation

extension PropertyListFile {
  /// Reads the file for the value of one top-level key (a one-shot `settings-editor read`): the
  /// document ``read()`` returns, holding that key's value alone (no value when the file does
  /// not hold it). See ``document(from:key:)``.
  ///
  /// - Returns: The document, or nil when the file does not exist.
  /// - Throws: ``PropertyListError`` as ``read()`` does.
  package func read(key: PropertyListKey) throws -> PropertyListDocument? {
    guard let (data, _, _) = try readDataToParse() else { return nil }
    return try document(from: data, key: key)
  }

  /// Parses `data` as this file's contents for the value of one top-level key: the document
  /// ``document(from:)`` returns, holding that key's value alone.
  ///
  /// The bytes are checked whole as ``document(from:)`` checks them, and refused with the same
  /// error; only `key`'s value is decoded, in a binary file
  /// (``BinaryPropertyListScanner/entry(ofTopKey:in:)``) and in UTF-8 XML text whose top
  /// dictionary's keys are plain (``XMLPropertyListEntries/entry(ofTopKey:in:)``), where a read
  /// decodes every value: a one-key read of a 1,000-key binary suite spent half its
  /// instructions decoding the others. Any other file is parsed whole. Counts the top-level
  /// values decoded (``PropertyListCounters/Counts/valuesDecoded``).
  ///
  /// - Throws: ``PropertyListError`` of kind `.malformed`.
  package func document(from data: Data, key: PropertyListKey) throws -> PropertyListDocument {
    let document: PropertyListDocument
    let isBinary = data.starts(with: "bplist".utf8)
    if let entry = try malformedIfRejected({ () throws(PropertyListRejection) in
      try isBinary
        ? BinaryPropertyListScanner.entry(ofTopKey: key, in: data)
        : XMLPropertyListEntries.entry(ofTopKey: key, in: data)
    }) {
      document = PropertyListDocument(values: entry, format: isBinary ? .binary : .xml)
    } else {
      // A binary file whose top object is not a dictionary (the parse refuses it, naming what
      // it is), or a text the XML scan does not find keys in (another encoding or format, a
      // key written with a reference, a key held twice).
      document = try parse(data)
    }
    let path = url.resolvingSymlinksInPath().path
    PropertyListCounters.count(\.valuesDecoded, by: document.values.count, path: path)
    let value = document.values[key]
    return PropertyListDocument(values: value.map { [key: $0] } ?? [:], format: document.format)
  }
}
