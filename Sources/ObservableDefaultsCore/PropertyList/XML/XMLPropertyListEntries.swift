import Foundation

/// The entries of the top dictionary of an XML property list found in its text, so that a
/// re-read parses only the entries another writer changed.
///
/// A writer that changes a few keys of a large XML file (Foundation, `plutil`, this package)
/// leaves the text of every other entry as it was, in its place. The scan
/// (``XMLPropertyListScanner``, which checks the whole text in the same pass) finds each entry's
/// `<key>` and value element without building any value, fingerprints their text
/// (``PropertyListEntries``), and a changed entry's value is read alone.
///
/// Entries are found only in the plain form writers produce: UTF-8 text, one `<dict>` at the
/// top, and only white space between its entries and between each key and its value, each key
/// without a reference, CDATA section or carriage return, no key held twice. Anything else
/// (comments, processing instructions, such keys) gives no entries, and the file is read whole
/// by the same scanner, keys exact.
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

  /// The entries of `data`, or nil when it is not in the plain form (see above) or is refused.
  static func entries(of data: Data) -> PropertyListEntries? {
    data.withUnsafeBytes { bytes in
      (try? topDictionary(bytes)).flatMap { entries(of: $0, in: bytes) }
    }
  }

  /// The entries of the scanned `dictionary` of the text `bytes`; nil when a key is held twice
  /// or is not UTF-8.
  static func entries(of dictionary: Dictionary, in bytes: UnsafeRawBufferPointer)
    -> PropertyListEntries?
  {
    guard let keys = keys(of: dictionary.entries.indices, dictionary, in: bytes),
      PropertyListEntries.areDistinct(keys)
    else { return nil }
    return PropertyListEntries(
      keys: keys, fingerprints: dictionary.entries.map(\.fingerprint),
      layout: XMLPropertyListLayout(dictionary))
  }

  /// The entries of the top dictionary of `data` that differ from those of the previous version
  /// of the file, told apart by their fingerprints; each parsed alone.
  ///
  /// - Parameters:
  ///   - data: The file now, checked whole by the same scan that finds its entries.
  ///   - old: The entries of the previous version.
  ///   - previous: The top dictionary of the previous version.
  /// - Returns: The keys set (with their values) and removed, and the entries of `data`; nil when
  ///   the file is not in the plain form, the versions do not share most entries, or a key is
  ///   held twice: read the whole file then.
  /// - Throws: ``PropertyListRejection`` when the file is refused (``XMLPropertyListScanner``).
  static func changes(
    of data: Data, since old: PropertyListEntries, previous: [PropertyListKey: Any]
  ) throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    guard old.keys.count == previous.count else { return nil }
    let scan = try data.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
      try topDictionary(bytes, deferringData: true, expectedCount: old.keys.count)
    }
    guard let dictionary = scan.dictionary else { return nil }
    let scanned = dictionary.entries
    let layout = XMLPropertyListLayout(dictionary)
    let fingerprints = scanned.map(\.fingerprint)
    // The Base64 the scan left unchecked: a changed entry's is decoded, which checks it (a
    // 50 MB value's 67 MB text was checked by the scan, then checked again as it was decoded).
    let decoded = try data.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
      try checkDeferred(scan.deferred, in: bytes) { position in
        !old.isUnchanged(at: position, fingerprint: fingerprints[position])
      }
    }
    let value = { (position: Int) throws(PropertyListRejection) -> Any in
      if let data = decoded[position] { return data }
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
        let key = XMLPropertyListScanner.validString(
          UnsafeRawBufferPointer(rebasing: bytes[dictionary.entries[position].key]))
      else { return nil }
      keys.append(PropertyListKey(key))
    }
    return keys
  }

  /// The fingerprint of an entry whose key's text is at `key` and whose value element is at
  /// `value` in `bytes` (see ``PropertyListEntries``): one hash of the text from the key's to the
  /// value element's end, `</key>` and the white space between them included (a hash of each,
  /// then combined, was a fifth of a re-read).
  static func fingerprint(key: Range<Int>, value: Range<Int>, in bytes: UnsafeRawBufferPointer)
    -> UInt64
  {
    ByteHash.of(bytes.baseAddress! + key.lowerBound, value.upperBound - key.lowerBound)
  }

  /// ``fingerprint(key:value:in:)`` of the entry of the plain form whose value element is at
  /// `value` in `bytes` and whose key's text is `keyCount` bytes before the `</key>` and white
  /// space before it; 0 (an entry a re-read always reads) when the text before it is shorter.
  static func fingerprint(keyCount: Int, value: Range<Int>, in bytes: UnsafeRawBufferPointer)
    -> UInt64
  {
    var keyEnd = value.lowerBound
    while keyEnd > 0, XMLPropertyListScanner.isSpace(bytes[keyEnd - 1]) { keyEnd -= 1 }
    keyEnd -= "</key>".utf8.count
    guard keyEnd - keyCount >= 0 else { return 0 }
    return fingerprint(key: (keyEnd - keyCount)..<keyEnd, value: value, in: bytes)
  }

  /// The canonical value of one value element's text (checked with the whole file).
  static func value(of element: Data) throws(PropertyListRejection) -> Any {
    try element.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
      var scanner = XMLPropertyListScanner(
        bytes: bytes, limits: .preferences, building: true, indexing: false)
      return try scanner.lone()
    }
  }

  /// Where the entries of `keys` are in the top dictionary of the text, checked whole with
  /// nothing built per entry (``XMLPropertyListPlaces``); nil when it is not UTF-8 XML text (an
  /// OpenStep text, or text in another encoding, which the reader converts first).
  ///
  /// - Throws: ``PropertyListRejection`` when the text is refused.
  static func places(of keys: [PropertyListKey], in bytes: UnsafeRawBufferPointer)
    throws(PropertyListRejection) -> XMLPropertyListPlaces?
  {
    guard try PropertyListTextEncoding.isUTF8(bytes), XMLPropertyListScanner.looksLikeXML(bytes)
    else { return nil }
    var scanner = XMLPropertyListScanner(
      bytes: bytes, limits: .preferences, building: false, indexing: false, finding: keys)
    _ = try scanner.document()
    return scanner.places
  }

  /// The top dictionary of the text (checked whole, nothing built), or nil when it is not in
  /// the plain form.
  ///
  /// - Throws: ``PropertyListRejection`` when the text is refused.
  static func topDictionary(_ bytes: UnsafeRawBufferPointer) throws(PropertyListRejection)
    -> Dictionary?
  {
    try topDictionary(bytes, deferringData: false).dictionary
  }

  /// ``topDictionary(_:)``, leaving unchecked the Base64 of the `<data>` values of its entries
  /// when `deferringData` (``XMLPropertyListScanner/defersTopData``): their places, in the order
  /// of the text, for ``checkDeferred(_:in:decoding:)``, which refuses the text as the scan would
  /// have refused it.
  ///
  /// `expectedCount`: how many entries the dictionary likely holds (the version before's),
  /// 0 when not known.
  ///
  /// - Throws: ``PropertyListRejection`` when the text is refused: for a refusal after a
  ///   deferred text that is not Base64, that one's, as a scan checking each in turn refuses it.
  static func topDictionary(
    _ bytes: UnsafeRawBufferPointer, deferringData: Bool, expectedCount: Int = 0
  ) throws(PropertyListRejection)
    -> (dictionary: Dictionary?, deferred: [(entry: Int, text: Range<Int>)])
  {
    // Entries of text in another encoding would be edited as UTF-8.
    guard try PropertyListTextEncoding.isUTF8(bytes) else { return (nil, []) }
    var scanner = XMLPropertyListScanner(
      bytes: bytes, limits: .preferences, building: false, indexing: true,
      defersTopData: deferringData)
    scanner.expectedTopEntries = expectedCount
    do {
      return (try scanner.document().topDictionary, scanner.deferredData)
    } catch {
      _ = try checkDeferred(scanner.deferredData, in: bytes) { _ in false }
      throw error
    }
  }

  /// Checks the Base64 texts a scan deferred (``topDictionary(_:deferringData:expectedCount:)``), in their
  /// order: decoding those of the entries at the positions `decoding` names (the decoder checks
  /// as it goes, ``Base64Text/decode(_:)``), checking the others (``XMLScalarText/isBase64(_:)``).
  ///
  /// - Returns: The bytes decoded, by entry position.
  /// - Throws: ``PropertyListRejection`` for the first text that is not Base64, as the scan
  ///   refuses it (the same reason and line).
  static func checkDeferred(
    _ deferred: [(entry: Int, text: Range<Int>)], in bytes: UnsafeRawBufferPointer,
    decoding: (Int) -> Bool
  ) throws(PropertyListRejection) -> [Int: Data] {
    var decoded: [Int: Data] = [:]
    for (entry, range) in deferred {
      let text = UnsafeRawBufferPointer(rebasing: bytes[range])
      if decoding(entry), let data = Base64Text.decode(text) {
        decoded[entry] = data
      } else if decoding(entry) || !XMLScalarText.isBase64(text) {
        var scanner = XMLPropertyListScanner(
          bytes: bytes, limits: .preferences, building: false, indexing: false)
        scanner.position = range.lowerBound
        throw scanner.rejection("<data> is not Base64")
      }
    }
    return decoded
  }
}
