import Foundation

/// Writes changes into the text of an XML property list in place: the entries changed get new
/// text, removed ones lose theirs, new ones are added at the end of the top dictionary, and
/// every other byte — other writers' and hand edits' text, the declaration and document type,
/// indentation — stays as it was.
///
/// A flush of one key of a 10,000-key XML suite was Foundation's `PropertyListEncoder`
/// re-encoding every key (two thirds of the flush). Each changed entry is encoded alone by the
/// same encoder, as a dictionary of one entry at the same depth (so with the indentation
/// Foundation gives the entries of a whole file), and its text is spliced in.
enum XMLPropertyListEdit {
  /// `text` with `changes` applied, and the entries of the new text (what a scan of it gives:
  /// the next re-read compares against them), or nil when the text is not in the plain form
  /// ``XMLPropertyListEntries`` scans (or holds a key twice): encode the whole document then.
  ///
  /// The entries are the old text's with the changed ones' fingerprints made from the text
  /// written, the removed ones taken out and the added ones at the end: scanning the written
  /// text again was a third of an XML flush.
  ///
  /// - Parameters:
  ///   - changes: Top-level key → change; values are canonical property-list values.
  ///   - text: The file's bytes, which parse to the document the changes apply to.
  /// - Throws: The encoder's error when a value is not a property-list value.
  static func applying(_ changes: [String: PropertyListChange], to text: Data) throws -> (
    text: Data, entries: PropertyListEntries
  )? {
    guard let dictionary = text.withUnsafeBytes({ XMLPropertyListEntries.topDictionary($0) })
    else { return nil }
    var entries = PropertyListEntries(
      keys: dictionary.entries.map(\.key), fingerprints: dictionary.entries.map(\.fingerprint))
    guard PropertyListEntries.areDistinct(entries.keys) else { return nil }
    var removed: [Int] = []
    var positions: [String: Int] = [:]
    // A few keys are compared, not looked up: hashing each of 1,000,000 keys was a tenth of a
    // flush of one key.
    let changedKeys = Array(changes.keys)
    let isChanged: (String) -> Bool =
      changedKeys.count <= 8 ? { changedKeys.contains($0) } : { changes[$0] != nil }
    for (index, entry) in dictionary.entries.enumerated() where isChanged(entry.key) {
      positions[entry.key] = index
    }
    // (range replaced, new bytes).
    var edits: [(Range<Int>, Data)] = []
    var added = Data()
    for (key, change) in changes.sorted(by: { $0.key < $1.key }) {
      let index = positions[key]
      switch (change, index) {
      case (.set(let value), let index?):
        guard let (text, _) = try entryText(key, value, whole: false) else { return nil }
        edits.append((dictionary.entries[index].value, text))
        entries.fingerprints[index] = fingerprint(key, text[...])
      case (.set(let value), nil):
        guard let (text, valueStart) = try entryText(key, value, whole: true) else { return nil }
        added.append(text)
        entries.keys.append(key)
        entries.fingerprints.append(fingerprint(key, text[(text.startIndex + valueStart)...]))
      case (.remove, let index?):
        removed.append(index)
        // The entry and the white space before it (back to the entry before, or `<dict>`).
        let start =
          index == 0
          ? dictionary.contents.lowerBound : dictionary.entries[index - 1].value.upperBound
        edits.append((start..<dictionary.entries[index].value.upperBound, Data()))
      case (.remove, nil):
        continue
      }
    }
    let end = dictionary.entries.last?.value.upperBound ?? dictionary.contents.lowerBound
    if !added.isEmpty { edits.append((end..<end, added)) }
    let result = spliced(text, edits.sorted { $0.0.lowerBound < $1.0.lowerBound })
    if !removed.isEmpty {
      let gone = Set(removed)
      let kept = entries.keys.indices.filter { !gone.contains($0) }
      entries = PropertyListEntries(
        keys: kept.map { entries.keys[$0] }, fingerprints: kept.map { entries.fingerprints[$0] })
    }
    return (result, entries)
  }

  /// `text` with each range of `edits` (in order, not overlapping) replaced by its bytes: the
  /// kept text and the new pieces copied once, in order, into a block of the result's size
  /// (``SystemMemory/allocate(byteCount:)``: a new block of a 67 MB text cost 40 ms of page
  /// faults here).
  private static func spliced(_ text: Data, _ edits: [(Range<Int>, Data)]) -> Data {
    let count = text.count + edits.reduce(0) { $0 + $1.1.count - $1.0.count }
    guard count > 0, let block = SystemMemory.allocate(byteCount: count) else { return Data() }
    var written = 0
    func copy(_ piece: Data.SubSequence) {
      guard !piece.isEmpty else { return }
      piece.withUnsafeBytes {
        (block + written).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
      }
      written += piece.count
    }
    var kept = text.startIndex
    for (range, bytes) in edits {
      copy(text[kept..<(text.startIndex + range.lowerBound)])
      copy(bytes[...])
      kept = text.startIndex + range.upperBound
    }
    copy(text[kept...])
    return Data(bytesNoCopy: block, count: count, deallocator: .free)
  }

  /// The fingerprint of an entry written with `key` (no entity: ``entryText(_:_:whole:)`` gives
  /// up on those) and the value element `value`, as the scan of the written text makes it.
  private static func fingerprint(_ key: String, _ value: Data.SubSequence) -> UInt64 {
    var key = key
    return key.withUTF8 { key in
      value.withUnsafeBytes {
        PropertyListEntries.fingerprint(key: UnsafeRawBufferPointer(key), value: $0)
      }
    }
  }

  /// The text Foundation writes for one entry of a top dictionary: the value element alone, or
  /// (`whole`) the whole entry with the line break and indentation before it, and where the
  /// value element starts in it; nil when it is not in the plain form (a key with an entity).
  private static func entryText(_ key: String, _ value: Any, whole: Bool) throws -> (
    text: Data, valueStart: Int
  )? {
    // Data: the entry of an empty value, with its Base64 lines written here (below).
    let data = value as? Data
    let document = try PropertyListEncoding.data(
      of: PropertyListDocument(values: [key: data.map { _ in Data() } ?? value], format: .xml))
    guard let dictionary = document.withUnsafeBytes({ XMLPropertyListEntries.topDictionary($0) }),
      let entry = dictionary.entries.first
    else { return nil }
    let start = whole ? dictionary.contents.lowerBound : entry.value.lowerBound
    let valueStart = entry.value.lowerBound - start
    let text = document[
      (document.startIndex + start)..<(document.startIndex + entry.value.upperBound)]
    guard let data, !data.isEmpty else { return (Data(text), valueStart) }
    // The empty value ends with its last line: the indentation and `</data>`.
    let closing = "</data>".utf8.count
    let indentation = entry.value.count - "<data>\n".utf8.count - closing
    let end = text.endIndex - closing - indentation
    var result = Data(text[..<end])
    result.append(base64Lines(data, indentation: text[end..<(end + indentation)]))
    result.append(text[end...])
    return (result, valueStart)
  }

  /// Characters of Base64 per line in Foundation's XML property lists (51 bytes).
  static let base64LineLength = 68

  /// `data` in Base64 as Foundation's `PropertyListEncoder` writes it inside `<data>`: lines of
  /// ``base64LineLength`` characters, each after `indentation` and ending with a line break.
  ///
  /// Foundation's writer takes 29 instructions per byte (5 s for a 50 MB value on this machine);
  /// `base64EncodedData()` and a copy per line take about 2. The value is encoded in pieces of
  /// whole lines, into one block of the result's size (``SystemMemory/allocate(byteCount:)``):
  /// encoding it whole made a second block of its Base64 text, and each new block of 67 MB
  /// cost 40 ms of page faults here.
  static func base64Lines(_ data: Data, indentation: Data) -> Data {
    let lineCount = (data.count + base64LineBytes - 1) / base64LineBytes
    let count = (data.count + 2) / 3 * 4 + lineCount * (indentation.count + 1)
    guard count > 0, let block = SystemMemory.allocate(byteCount: count) else { return Data() }
    let output = UnsafeMutableRawBufferPointer(start: block, count: count)
    var written = 0
    func copy(_ bytes: UnsafeRawBufferPointer) {
      UnsafeMutableRawBufferPointer(rebasing: output[written..<written + bytes.count])
        .copyMemory(from: bytes)
      written += bytes.count
    }
    // One copy per line into the block: `Data.append` per line cost 45 instructions per byte.
    indentation.withUnsafeBytes { prefix in
      let piece = 1024 * base64LineBytes
      for start in stride(from: data.startIndex, to: data.endIndex, by: piece) {
        let encoded = data[start..<min(start + piece, data.endIndex)].base64EncodedData()
        encoded.withUnsafeBytes { input in
          for line in stride(from: 0, to: input.count, by: base64LineLength) {
            copy(prefix)
            copy(
              UnsafeRawBufferPointer(
                rebasing: input[line..<min(line + base64LineLength, input.count)]))
            output[written] = UInt8(ascii: "\n")
            written += 1
          }
        }
      }
    }
    return Data(bytesNoCopy: block, count: count, deallocator: .free)
  }

  /// The bytes of one line of ``base64LineLength`` Base64 characters.
  private static let base64LineBytes = base64LineLength / 4 * 3
}
