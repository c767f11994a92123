import Foundation

/// The entries of the top dictionary of an XML property list found in its text, so that a
/// re-read parses only the entries another writer changed.
///
/// A writer that changes a few keys of a large XML file (Foundation, `plutil`, this package)
/// leaves the text of every other entry as it was, in its place. The scan finds each entry's
/// `<key>` and value element without building any value, fingerprints their text
/// (``PropertyListEntries``), and a changed entry's value is parsed alone, by Foundation's
/// parser, wrapped in a `<plist>` element of its own: the value the whole file's parse gives.
///
/// Only the plain form writers produce is scanned: an optional byte-order mark and XML
/// declaration (UTF-8), an optional document type without an internal subset, `<plist>`, one
/// `<dict>`, and entries separated by white space. Anything else — comments, CDATA, processing
/// instructions or other text between or inside the entries, a key with an entity or a carriage
/// return (which a parser would translate), a key held twice, another encoding — makes the
/// scan give up, and the file is parsed whole, as before.
enum XMLPropertyListEntries {
  /// One entry of the top dictionary.
  struct Entry {
    /// Where its key's text is in the file's bytes (no entity, no carriage return; not yet
    /// checked for UTF-8: ``keys(of:_:in:)``).
    let key: Range<Int>
    let fingerprint: UInt64
    /// Where its `<key>` element starts in the file's bytes.
    let start: Int
    /// Where its value element is in the file's bytes.
    let value: Range<Int>
  }

  /// The top dictionary: its entries, and where its contents begin (after `<dict>`) and end (at
  /// `</dict>`).
  struct Dictionary {
    var entries: [Entry]
    let contents: Range<Int>
  }

  /// The entries of `data`, or nil when it is not in the plain form (see above).
  static func entries(of data: Data) -> PropertyListEntries? {
    data.withUnsafeBytes { bytes in
      topDictionary(bytes).flatMap { dictionary in
        guard let keys = keys(of: dictionary.entries.indices, dictionary, in: bytes),
          PropertyListEntries.areDistinct(keys)
        else { return nil }
        return PropertyListEntries(
          keys: keys, fingerprints: dictionary.entries.map(\.fingerprint),
          layout: XMLPropertyListLayout(dictionary))
      }
    }
  }

  /// The entries of the top dictionary of `data` that differ from those of the previous version
  /// of the file, told apart by their fingerprints; each parsed alone.
  ///
  /// - Parameters:
  ///   - data: The file now; it passed ``PropertyListValidator``.
  ///   - old: The entries of the previous version.
  ///   - previous: The top dictionary of the previous version.
  /// - Returns: The keys set (with their values) and removed, and the entries of `data`; nil when
  ///   the file is not in the plain form, the versions do not share most entries, or a key is
  ///   held twice: read the whole file then.
  /// - Throws: ``PropertyListRejection`` when a changed value does not parse.
  static func changes(
    of data: Data, since old: PropertyListEntries, previous: [PropertyListKey: Any]
  ) throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    guard old.keys.count == previous.count,
      let dictionary = data.withUnsafeBytes({ topDictionary($0) })
    else { return nil }
    let scanned = dictionary.entries
    let layout = XMLPropertyListLayout(dictionary)
    let fingerprints = scanned.map(\.fingerprint)
    let value = { (position: Int) throws(PropertyListRejection) -> Any in
      let range = scanned[position].value
      return try Self.value(
        of: data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)])
    }
    if let touched = old.touchedPositions(fingerprints) {
      // Only the touched entries' keys are made: the others are the old version's, byte for
      // byte (making every key a string was a tenth of a re-read).
      let positions = touched.filter { $0 < scanned.count }
      guard let keys = data.withUnsafeBytes({ Self.keys(of: positions, dictionary, in: $0) }) else {
        return nil
      }
      let touchedKeys = Swift.Dictionary(uniqueKeysWithValues: zip(positions, keys))
      var changes = try old.changes(
        touched: touched, fingerprints: fingerprints, previous: previous
      ) { position throws(PropertyListRejection) in (touchedKeys[position]!, try value(position)) }
      changes?.entries.layout = layout
      return changes
    }
    // Keys added or removed in a file whose keys are sorted (Foundation writes them so) move
    // the entries after them: match those by key instead.
    guard
      let scannedKeys = data.withUnsafeBytes({ Self.keys(of: scanned.indices, dictionary, in: $0) })
    else { return nil }
    let oldFingerprints = Swift.Dictionary(zip(old.keys, old.fingerprints)) { first, _ in first }
    var set: [PropertyListKey: Any] = [:]
    var keys = Set<PropertyListKey>(minimumCapacity: scanned.count)
    for (position, key) in scannedKeys.enumerated() {
      guard keys.insert(key).inserted else { return nil }
      guard oldFingerprints[key] != scanned[position].fingerprint else { continue }
      // Another writer rewrote the file: reading it whole is as cheap.
      if set.count >= 64 + scanned.count / 8 { return nil }
      set[key] = try value(position)
    }
    let entries = PropertyListEntries(keys: scannedKeys, fingerprints: fingerprints, layout: layout)
    return (set, old.keys.filter { !keys.contains($0) }, entries)
  }

  /// The keys of the entries of `dictionary` at `positions`, made from the text `bytes` it was
  /// scanned from; nil when one is not UTF-8 (the file is then parsed whole).
  static func keys<Positions: Collection<Int>>(
    of positions: Positions, _ dictionary: Dictionary, in bytes: UnsafeRawBufferPointer
  ) -> [PropertyListKey]? {
    var keys: [PropertyListKey] = []
    keys.reserveCapacity(positions.count)
    for position in positions {
      guard
        let key = XMLEntryScanner.string(
          UnsafeRawBufferPointer(rebasing: bytes[dictionary.entries[position].key]))
      else { return nil }
      keys.append(PropertyListKey(key))
    }
    return keys
  }

  /// The canonical value of one value element's text: built from its bytes in the plain form
  /// (``XMLEntryScanner/value(ofElement:)``), else parsed by Foundation as a document of its own.
  private static func value(of element: Data) throws(PropertyListRejection) -> Any {
    if let value = XMLEntryScanner.value(ofElement: element) { return value }
    var document = Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#.utf8)
    document.append(element)
    document.append(contentsOf: "</plist>".utf8)
    let root: Any
    do {
      root = try PropertyListSerialization.propertyList(
        from: XMLLineEnds.normalized(document), options: [], format: nil)
    } catch {
      throw PropertyListRejection(reason: describe(error))
    }
    guard let value = PropertyListValue.normalized(root) else {
      throw PropertyListRejection(reason: "a value of the top dictionary is not a property list")
    }
    return value
  }

  /// The entries of the text, or nil when it is not in the plain form.
  static func scan(_ bytes: UnsafeRawBufferPointer) -> [Entry]? {
    topDictionary(bytes)?.entries
  }

  /// The top dictionary of the text, or nil when it is not in the plain form.
  static func topDictionary(_ bytes: UnsafeRawBufferPointer) -> Dictionary? {
    var scanner = XMLEntryScanner(bytes: bytes)
    return scanner.topDictionary()
  }
}
