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
  /// the next re-read compares against them, the next flush edits at their places), or nil
  /// when the text is not in the plain form ``XMLPropertyListEntries`` scans (or holds a key
  /// twice): encode the whole document then.
  ///
  /// The entries are the old text's with the changed ones' fingerprints made from the text
  /// written, the removed ones taken out, the added ones at the end, and every place after an
  /// edit moved by the bytes it added or took: scanning the written text again was a third of
  /// an XML flush, and scanning the text before the edit most of the rest.
  ///
  /// - Parameters:
  ///   - changes: Top-level key → change; values are canonical property-list values.
  ///   - text: The file's bytes, which parse to the document the changes apply to.
  ///   - known: The entries of `text` with their ``PropertyListEntries/layout``, when they are
  ///     known (kept from the last read or write of this version); else the text is scanned.
  /// - Throws: The encoder's error when a value is not a property-list value.
  static func applying(
    _ changes: [PropertyListKey: PropertyListChange], to text: Data,
    known: PropertyListEntries? = nil
  ) throws -> (text: Data, entries: PropertyListEntries)? {
    let usable = known.flatMap {
      $0.layout?.describes($0.keys.count, count: text.count) == true ? $0 : nil
    }
    guard var entries = usable ?? XMLPropertyListEntries.entries(of: text),
      let layout = entries.layout
    else { return nil }
    var removed: [Int] = []
    var positions: [PropertyListKey: Int] = [:]
    // A few keys are compared, not looked up: hashing each of 1,000,000 keys was a tenth of a
    // flush of one key.
    let changeList = Array(changes)
    let changedKeys = changeList.map(\.key)
    let isChanged: (PropertyListKey) -> Bool =
      changedKeys.count <= 8 ? { changedKeys.contains($0) } : { changes[$0] != nil }
    for (index, key) in entries.keys.enumerated() where isChanged(key) {
      positions[key] = index
    }
    var edits: [Edit] = []
    var added = Data()
    // Where each added entry's value element is in `added`.
    var addedValues: [Range<Int>] = []
    // In key order (the added entries are written so), found by the keys' leading bytes: sorting
    // by `<` was half of the edit that removed every key of a 100,000-key suite.
    for position in PropertyListKey.order(of: changedKeys) {
      let (key, change) = changeList[position]
      let index = positions[key]
      // The entry and the white space before it (back to the entry before, or `<dict>`).
      let place = index.map { index in
        let removalStart = index == 0 ? layout.contentsStart : Int(layout.values[index - 1].end)
        return XMLPropertyListPlaces.Place(
          value: layout.values[index].range,
          removal: removalStart..<Int(layout.values[index].end))
      }
      switch try edit(key, change, at: place) {
      case nil: return nil
      case .replaced(var edit)?:
        // Fingerprinted in the new text, once written there (below).
        edit.entry = (index!, key.string)
        edits.append(edit)
      case .added(let element, let valueStart)?:
        let text = try element.text()
        addedValues.append((added.count + valueStart)..<(added.count + text.count))
        added.append(text)
        entries.keys.append(key)
        entries.fingerprints.append(
          fingerprint(key.string, value: valueStart..<text.count, in: text))
      case .removed(let edit)?:
        removed.append(index!)
        edits.append(edit)
      case .unchanged?:
        continue
      }
    }
    edits.sort { $0.range.lowerBound < $1.range.lowerBound }
    // The places of the kept entries (moved by the edits before them), then of the added ones.
    var values = layout.moved(by: edits)
    let end = layout.values.last.map { Int($0.end) } ?? layout.contentsStart
    let addedStart = end + edits.reduce(0) { $0 + $1.growth }
    values += addedValues.map {
      XMLPropertyListLayout.Span(($0.lowerBound + addedStart)..<($0.upperBound + addedStart))
    }
    if !added.isEmpty { edits.append(Edit(range: end..<end, bytes: added)) }
    let (result, starts) = try spliced(text, edits)
    for (edit, start) in zip(edits, starts) {
      guard let (index, key) = edit.entry else { continue }
      entries.fingerprints[index] = fingerprint(
        key, value: start..<(start + edit.count), in: result)
    }
    if !removed.isEmpty {
      let gone = Set(removed)
      let kept = entries.keys.indices.filter { !gone.contains($0) }
      entries.keys = kept.map { entries.keys[$0] }
      entries.fingerprints = kept.map { entries.fingerprints[$0] }
    }
    entries.layout = XMLPropertyListLayout(contentsStart: layout.contentsStart, values: values)
    return (result, entries)
  }

  /// What one change does to the text of a top dictionary.
  enum ChangeEdit {
    /// The entry's value element replaced.
    case replaced(Edit)
    /// A new entry, with the line break and indentation before it, to add after the last one;
    /// its value element starts at `valueStart`.
    case added(Element, valueStart: Int)
    /// The entry removed, with the white space before it.
    case removed(Edit)
    /// Nothing: a removal of a key the text does not hold.
    case unchanged
  }

  /// The edit of the top dictionary's text that `change` of `key` makes, whose entry is at
  /// `place` when the text holds it; nil when the new text is not in the plain form (a key
  /// with an entity).
  ///
  /// - Throws: The encoder's error when a value is not a property-list value.
  static func edit(
    _ key: PropertyListKey, _ change: PropertyListChange, at place: XMLPropertyListPlaces.Place?
  ) throws -> ChangeEdit? {
    switch (change, place) {
    case (.set(let value), let place?):
      guard let (element, _) = try entryText(key.string, value, whole: false) else {
        return nil
      }
      return .replaced(Edit(range: place.value, element: element))
    case (.set(let value), nil):
      guard let (element, valueStart) = try entryText(key.string, value, whole: true) else {
        return nil
      }
      return .added(element, valueStart: valueStart)
    case (.remove, let place?):
      return .removed(Edit(range: place.removal, bytes: Data()))
    case (.remove, nil):
      return .unchanged
    }
  }

  /// One edit of the text: the bytes of `range` replaced by an element's text.
  struct Edit {
    let range: Range<Int>
    let element: Element
    /// The entry whose value element this is (its position and key), to fingerprint once it
    /// is written.
    var entry: (index: Int, key: String)?

    init(range: Range<Int>, bytes: Data) {
      self.range = range
      element = Element(opening: bytes)
    }

    init(range: Range<Int>, element: Element) {
      self.range = range
      self.element = element
    }

    /// The bytes written in place of `range`.
    var count: Int { element.count }

    /// How many bytes the edit adds to the text (negative when it takes some away).
    var growth: Int { count - range.count }
  }

  /// The text of an entry, or of a value element: `opening`, then for a data value its Base64
  /// lines, each after `indentation` (``base64LineLength`` characters, as Foundation's
  /// `PropertyListEncoder` writes them inside `<data>`), then `closing`.
  ///
  /// The lines are encoded where the text is written (``Base64Text``): a 50 MB value's element
  /// made as a block of its own was one more 67 MB block (40 ms of page faults here) and copy.
  /// Foundation's writer takes 29 instructions per byte (5 s for a 50 MB value here).
  struct Element {
    let opening: Data
    var lines: (data: Data, indentation: Data)?
    var closing = Data()

    init(opening: Data) {
      self.opening = opening
    }

    init(opening: Data, lines: (data: Data, indentation: Data), closing: Data) {
      self.opening = opening
      self.lines = lines
      self.closing = closing
    }

    /// How many bytes the text takes.
    var count: Int {
      opening.count + closing.count
        + (lines.map {
          Base64Text.byteCount(
            encoding: $0.data.count, lineLength: base64LineLength,
            indentation: $0.indentation.count)
        } ?? 0)
    }

    /// Writes the text after the bytes written before.
    func write(into output: inout OutputBlock) {
      output.append(opening[...])
      if let (data, indentation) = lines {
        let count = self.count - opening.count - closing.count
        indentation.withUnsafeBytes { indentation in
          data.withUnsafeBytes { data in
            output.write(count: count) {
              Base64Text.encode(
                data, lineLength: base64LineLength, indentation: indentation, into: $0)
            }
          }
        }
      }
      output.append(closing[...])
    }

    /// The text, in a block of its own.
    ///
    /// - Throws: ``PropertyListEncodingFailure`` when memory runs out.
    func text() throws(PropertyListEncodingFailure) -> Data {
      guard lines != nil else { return opening }
      var output = try output(capacity: count)
      write(into: &output)
      return output.data()
    }
  }

  /// `text` with each range of `edits` (in order, not overlapping) replaced by its element's
  /// text, and where each of those starts in the result: the kept text and the new pieces
  /// written once, in order, into a block of the result's size
  /// (``SystemMemory/allocate(byteCount:)``: a new block of a 67 MB text cost 40 ms of page
  /// faults here).
  static func spliced(_ text: Data, _ edits: [Edit]) throws(PropertyListEncodingFailure)
    -> (Data, starts: [Int])
  {
    var output = try output(capacity: text.count + edits.reduce(0) { $0 + $1.growth })
    var kept = text.startIndex
    var starts: [Int] = []
    starts.reserveCapacity(edits.count)
    for edit in edits {
      output.append(text[kept..<(text.startIndex + edit.range.lowerBound)])
      starts.append(output.count)
      edit.element.write(into: &output)
      kept = text.startIndex + edit.range.upperBound
    }
    output.append(text[kept...])
    return (output.data(), starts)
  }

  /// `text` with each range of `edits` (in order, not overlapping) replaced by its element's
  /// text, in pieces to be written one after the other: the kept text as slices of `text`, not
  /// copies. A one-shot write needs no block of the result: copying a 6.2 MB text into a new
  /// block (the kernel clearing and mapping its pages, then the copy) was a twentieth of a
  /// one-key write at 100,000 keys.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when memory for an element's text runs out.
  static func pieces(of text: Data, _ edits: [Edit]) throws(PropertyListEncodingFailure)
    -> [Data]
  {
    var pieces: [Data] = []
    var kept = text.startIndex
    for edit in edits {
      pieces.append(text[kept..<(text.startIndex + edit.range.lowerBound)])
      pieces.append(try edit.element.text())
      kept = text.startIndex + edit.range.upperBound
    }
    pieces.append(text[kept...])
    return pieces.filter { !$0.isEmpty }
  }

  /// A block for `capacity` bytes of text.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when memory runs out: the flush then fails and
  ///   leaves the file as it was (an empty text had been written over the suite).
  static func output(capacity: Int) throws(PropertyListEncodingFailure) -> OutputBlock {
    guard let output = OutputBlock(capacity: capacity) else {
      throw PropertyListEncodingFailure(reason: "out of memory for \(capacity) bytes of text")
    }
    return output
  }

  /// The fingerprint of an entry written with `key` (no entity: ``entryText(_:_:whole:)`` gives
  /// up on those) before the value element at `value` in `text`, as the scan of the written
  /// text makes it.
  private static func fingerprint(_ key: String, value: Range<Int>, in text: Data) -> UInt64 {
    text.withUnsafeBytes {
      XMLPropertyListEntries.fingerprint(keyCount: key.utf8.count, value: value, in: $0)
    }
  }

  /// The text Foundation writes for one entry of a top dictionary: the value element alone, or
  /// (`whole`) the whole entry with the line break and indentation before it, and where the
  /// value element starts in it; nil when it is not in the plain form (a key with an entity).
  private static func entryText(_ key: String, _ value: Any, whole: Bool) throws -> (
    element: Element, valueStart: Int
  )? {
    // Data: the entry of an empty value, with its Base64 lines written here (below).
    let data = value as? Data
    let document = try PropertyListEncoding.data(
      of: PropertyListDocument(values: [key: data.map { _ in Data() } ?? value], format: .xml))
    guard
      let dictionary = document.withUnsafeBytes({ try? XMLPropertyListEntries.topDictionary($0) })
        ?? nil,
      let entry = dictionary.entries.first
    else { return nil }
    let start = whole ? dictionary.contents.lowerBound : entry.value.lowerBound
    let valueStart = entry.value.lowerBound - start
    let text = document[
      (document.startIndex + start)..<(document.startIndex + entry.value.upperBound)]
    guard let data, !data.isEmpty else { return (Element(opening: Data(text)), valueStart) }
    // The empty value ends with its last line: the indentation and `</data>`.
    let closing = "</data>".utf8.count
    let indentation = entry.value.count - "<data>\n".utf8.count - closing
    let end = text.endIndex - closing - indentation
    let element = Element(
      opening: Data(text[..<end]), lines: (data, Data(text[end..<(end + indentation)])),
      closing: Data(text[end...]))
    return (element, valueStart)
  }

  /// Characters of Base64 per line in Foundation's XML property lists (51 bytes).
  static let base64LineLength = 68

}
