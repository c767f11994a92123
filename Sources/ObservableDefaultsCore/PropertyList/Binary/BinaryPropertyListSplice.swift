import Foundation

/// Writes a few changes to the top dictionary of a binary property list without decoding or
/// encoding its other keys: the bytes of its objects are copied as they are, the changed values
/// (and added keys) are encoded after them, then the top dictionary, the offset table and the
/// trailer.
///
/// A process that writes one key and exits (`settings-editor write`) used to parse every key and
/// encode every key again (a draft of 100,000 keys, then their bytes). Here its work is the one
/// pass of ``BinaryPropertyListScanner`` that checks the file (scalars are checked, not decoded;
/// the changed keys are found by comparing the key objects' bytes; the objects reached are
/// counted as it meets them, to bound the bytes no reference reaches as
/// ``BinaryPropertyListDraft`` does: ``BinaryPropertyListReach``), and the copy. The top dictionary keeps its entries' places (a removed entry takes the
/// last one's, added entries follow), so a watching process's re-read finds every other entry
/// at its place (``PropertyListEntries``). It is written last of the objects, so the next splice
/// rewrites it in place instead of leaving its old bytes behind.
enum BinaryPropertyListSplice {
  /// `data` with `changes` applied to its top dictionary, or nil when they are not spliced:
  /// the top object is not a dictionary, a changed key is held twice, the file's reference size cannot number the new objects, the bytes
  /// no reference reaches would pass a quarter of the file (encode the document then: that
  /// writes a file without them), or the file might expand past ``PropertyListLimits`` when
  /// read (counted as the file's values plus the new ones: the document's write counts exactly,
  /// and refuses what a reader would).
  ///
  /// - Parameters:
  ///   - changes: Top-level key → change; values are canonical property-list values.
  ///   - data: The file's bytes (checked whole here, as every read checks them).
  /// - Throws: ``PropertyListRejection`` when `data` is refused; ``PropertyListEncodingFailure``
  ///   naming a value that is not a property-list value, or when memory for the bytes runs out.
  static func applying(_ changes: [PropertyListKey: PropertyListChange], to data: Data) throws
    -> PropertyListSpliceOutcome?
  {
    let found = try BinaryPropertyListScanner.scanning(data) {
      scanner throws(PropertyListRejection) in try find(Array(changes.keys), in: &scanner)
    }
    guard let found else { return nil }
    return try data.withUnsafeBytes { bytes in
      try splice(
        changes, into: try BinaryPropertyListLayout(bytes: bytes), of: data, found: found)
    }
  }

  /// The top dictionary of a checked file, and where `keys` are in it.
  private struct Found {
    /// The byte offset of its marker.
    let offset: Int
    /// The byte offset of its first key reference (its value references follow its keys').
    let start: Int
    /// Its entries.
    let count: Int
    /// Each of the keys the file holds: its entry's position and value, and its key and value
    /// objects (with their bytes when scalars).
    let entries: [PropertyListKey: Entry]
    /// The objects reached from the top dictionary, so far.
    var reach: BinaryPropertyListReach
    /// What the file expands to when read (the scanner's count of its one pass).
    let expansion: PropertyListExpansion
  }

  /// An entry of the top dictionary a change names.
  private struct Entry {
    let position: Int
    let value: Any
    let key: (object: Int, bytes: Range<Int>)
    let valueObject: (object: Int, bytes: Range<Int>?)
  }

  /// Checks the whole file (one pass of `scanner`) and finds `keys` in its top dictionary by
  /// comparing the bytes of every key object with each key's (``BinaryPropertyListKeyMatcher``).
  ///
  /// - Returns: nil when the top object is not a dictionary or one of `keys` is held twice.
  private static func find(_ keys: [PropertyListKey], in scanner: inout BinaryPropertyListScanner)
    throws(PropertyListRejection) -> Found?
  {
    guard let top = try scanner.topDictionary() else { return nil }
    let matcher = BinaryPropertyListKeyMatcher(keys)
    let bytes = scanner.bytes
    let layout = scanner.layout
    var reach = BinaryPropertyListReach(
      objectCount: layout.objectCount, top: layout.topObject,
      hole: top.offset..<(top.start + 2 * top.count * layout.referenceSize),
      end: layout.tableOffset)
    var found: [(key: Int, position: Int, entry: BinaryPropertyListScanner.CheckedEntry)] = []
    _ = try scanner.forEachEntry(at: 0..<top.count, of: top, depth: 1) {
      position, key, keyObject, valueObject, item in
      reach.add(keyObject, bytes: key.range)
      if case .scalar(let scalar) = item {
        reach.add(valueObject, bytes: scalar.range)
      } else {
        reach.addContainer(valueObject)
      }
      if let index = matcher.match(key, in: bytes) {
        found.append((index, position, (key, keyObject, valueObject, item)))
      }
      return true
    }
    try scanner.requireObjectAreaMostlyReached()
    var entries: [PropertyListKey: Entry] = [:]
    for (index, position, (key, keyObject, valueObject, item)) in found {
      guard entries[keys[index]] == nil else { return nil }
      var valueBytes: Range<Int>?
      if case .scalar(let scalar) = item { valueBytes = scalar.range }
      entries[keys[index]] = Entry(
        position: position, value: scanner.value(of: item), key: (keyObject, key.range),
        valueObject: (valueObject, valueBytes))
    }
    return Found(
      offset: top.offset, start: top.start, count: top.count, entries: entries, reach: reach,
      expansion: scanner.expansion)
  }

  /// The splice of `changes` into `file` (the layout of `data`), whose top dictionary was
  /// `found`.
  private static func splice(
    _ changes: [PropertyListKey: PropertyListChange], into file: BinaryPropertyListLayout,
    of data: Data, found: Found
  ) throws(PropertyListEncodingFailure) -> PropertyListSpliceOutcome? {
    var reach = found.reach
    // The containers replaced or removed are not walked; their scalars are taken back.
    var dropped: [Int: Int] = [:]
    func drop(_ object: (object: Int, bytes: Range<Int>?)) {
      if let bytes = object.bytes {
        reach.remove(bytes: bytes)
      } else {
        dropped[object.object, default: 0] += 1
      }
    }
    // The changes that change something, in a fixed order.
    var sets: [(key: PropertyListKey, value: Any, position: Int?)] = []
    var removed: [Int] = []
    var old: [PropertyListKey: Any?] = [:]
    for (key, change) in changes.sorted(by: { $0.key < $1.key }) {
      let entry = found.entries[key]
      switch change {
      case .set(let value):
        if let entry, propertyListValuesEqual(entry.value, value) { continue }
        sets.append((key, value, entry?.position))
        if let entry { drop(entry.valueObject) }
      case .remove:
        guard let entry else { continue }
        removed.append(entry.position)
        drop(entry.valueObject)
        reach.remove(bytes: entry.key.bytes)
      }
      old[key] = .some(entry?.value)
    }
    guard !sets.isEmpty || !removed.isEmpty else { return .unchanged }

    var table = BinaryPropertyListObjectTable(
      sizedFor: [PropertyListKey: Any](uniqueKeysWithValues: sets.map { ($0.key, $0.value) }))
    var top = TopReferences(count: found.count)
    let first = file.objectCount
    // At most what the new file expands to: the file's values (the ones replaced or removed
    // counted still) and the new ones.
    var expansion = found.expansion
    for (key, value, position) in sets {
      let added = try BinaryPropertyListWriter.add(value, to: &table)
      expansion = expansion + table.expansion(of: added)
      let object = first + added
      if let position {
        top.replaced[position] = object
      } else {
        let keyObject = table.addScalar {
          BinaryPropertyListWriter.appendString(key.string, to: &$0)
        }
        expansion = expansion + table.expansion(of: keyObject)
        top.added.append((first + keyObject, object))
      }
    }
    for position in removed.sorted(by: >) { top.remove(position) }
    let objectCount = first + table.objects.count
    guard file.referenceSize >= 8 || objectCount <= 1 << (8 * file.referenceSize) else {
      return nil
    }
    // The old objects' bytes: all of them but the top dictionary's. Those no reference reaches
    // (and their offsets) stay below a quarter of the file.
    let copied = reach.copiedBytes
    guard reach.walk(in: file, skipping: dropped) else { return nil }
    let unreferenced =
      copied - 8 - reach.bytes + (file.objectCount - reach.objects) * file.offsetSize
    guard unreferenced <= (copied + table.scalarByteCount) / 4 + 4096 else { return nil }
    let pieces = try write(
      file, of: data, leavingOut: reach.hole, table: table, top: top, at: found.start)
    // Near a reader's limits, the document is written instead, which counts them exactly.
    guard
      PropertyListLimits.preferences.acceptsBinaryFile(
        expandingTo: expansion, objects: objectCount, size: pieces.reduce(0) { $0 + $1.count })
    else { return nil }
    return .spliced(pieces, old: old, encodedKeys: sets.count, copiedBytes: copied - 8)
  }

  /// The new file, in pieces to be written one after the other: `file`'s object area (its
  /// header included) but the bytes `hole` of its top dictionary, the objects of `table`
  /// (numbered after `file`'s), the top dictionary `top` (changed from `file`'s, whose
  /// references start at byte `start`; in `file`'s top object's place), the offset table and
  /// the trailer. The object area's bytes are slices of `data`, the file's own bytes (`file` is
  /// their layout), not copies: copying them into a new block was a sixth of a one-key write
  /// at 100,000 keys (the copy, and the kernel clearing and mapping the block's pages). The
  /// references and offsets kept are copied as
  /// bytes when the top dictionary was the last object (as this splice writes it): decoding and
  /// encoding the 2,000,000 offsets and references of a 1,000,000-key suite was a fifth of a
  /// one-shot write. Otherwise (a file Foundation, python's `plistlib` or this package's
  /// document writer wrote, the top dictionary first) the offsets after the hole move down by
  /// its size: leaving the old top dictionary's references in the file, as many bytes as a
  /// shared value's suite holds in all its values, passed the quarter the splice allows, so
  /// every write into such a file encoded it whole.
  private static func write(
    _ file: BinaryPropertyListLayout, of data: Data, leavingOut hole: Range<Int>,
    table: BinaryPropertyListObjectTable, top: TopReferences, at start: Int
  ) throws(PropertyListEncodingFailure) -> [Data] {
    let objectCount = file.objectCount + table.objects.count
    let entries = top.entryCount
    let bound =
      table.scalarByteCount + table.objects.count * 10 + table.references.count
      * file.referenceSize + 10 + 2 * entries * file.referenceSize + 8 * objectCount + 32
    guard let buffer = SystemMemory.allocate(byteCount: bound)?.assumingMemoryBound(to: UInt8.self)
    else {
      throw PropertyListEncodingFailure(
        reason: "out of memory for a property list of \(bound) bytes")
    }
    var output = BigEndianOutput(base: buffer, bound: bound, leavingOutLargeData: true)
    for kept in [0..<hole.lowerBound, hole.upperBound..<file.tableOffset] where !kept.isEmpty {
      output.appendPiece(
        data[(data.startIndex + kept.lowerBound)..<(data.startIndex + kept.upperBound)])
    }
    var offsets: [Int] = []
    offsets.reserveCapacity(table.objects.count)
    BinaryPropertyListWriter.appendObjects(
      of: table, numberedFrom: file.objectCount, referenceSize: file.referenceSize, to: &output
    ) { _, offset in offsets.append(offset) }
    let topOffset = output.offset
    output.appendMarker(0xD0, count: entries)
    top.append(keys: true, of: file, at: start, to: &output)
    top.append(keys: false, of: file, at: start, to: &output)
    // The file's offset of the table, and where it starts in `buffer`.
    let (tableOffset, tableStart) = (output.offset, output.count)
    let offsetSize = BinaryPropertyListWriter.byteCount(UInt64(tableOffset))
    if offsetSize == file.offsetSize, hole.upperBound == file.tableOffset {
      output.appendBytes(
        of: UnsafeRawBufferPointer(
          rebasing: file.bytes[
            file.tableOffset..<(file.tableOffset + file.objectCount * offsetSize)]))
      output.write(
        UInt64(topOffset), size: offsetSize, at: tableStart + file.topObject * offsetSize)
      for offset in offsets { output.append(UInt64(offset), size: offsetSize) }
      output.appendTrailer(
        offsetSize: offsetSize, referenceSize: file.referenceSize, objectCount: objectCount,
        top: file.topObject, tableOffset: tableOffset)
    } else {
      // An offset into the hole is an object no reference reaches (``BinaryPropertyListReach``).
      // One array of its final size (a concatenation made a second one, and its page faults).
      var all: [Int] = []
      all.reserveCapacity(file.objectCount + offsets.count)
      for index in 0..<file.objectCount {
        let offset = file.uncheckedOffset(index)
        all.append(offset < hole.lowerBound ? offset : max(hole.lowerBound, offset - hole.count))
      }
      all += offsets
      all[file.topObject] = topOffset
      output.appendOffsetTable(
        all, objectCount: objectCount, top: file.topObject, referenceSize: file.referenceSize)
    }
    return output.pieces()
  }

  /// The references of the new top dictionary: the file's, with some values replaced, entries
  /// removed (the last one takes a removed one's place) and entries added at the end.
  private struct TopReferences {
    /// The file's entries.
    let count: Int
    /// Position → the object of its new value.
    var replaced: [Int: Int] = [:]
    /// Position → the position of the file's entry now there (a removed one's place taken).
    var moved: [Int: Int] = [:]
    /// The file's entries kept: the first `kept` positions.
    var kept: Int
    /// The key and value objects of the entries added.
    var added: [(key: Int, value: Int)] = []

    init(count: Int) {
      self.count = count
      kept = count
    }

    var entryCount: Int { kept + added.count }

    /// Removes the entry at `position` (removals from the highest position down).
    mutating func remove(_ position: Int) {
      kept -= 1
      if position != kept {
        moved[position] = moved[kept] ?? kept
        replaced[position] = replaced[kept]
      }
      moved[kept] = nil
      replaced[kept] = nil
    }

    /// Appends the key references (`keys`) or the value references of the entries, the file's
    /// (its top dictionary's references start at byte `start`) copied as bytes.
    func append(
      keys: Bool, of file: BinaryPropertyListLayout, at start: Int, to output: inout BigEndianOutput
    ) {
      let size = file.referenceSize
      let first = start + (keys ? 0 : count * size)
      let base = output.count
      output.appendBytes(
        of: UnsafeRawBufferPointer(rebasing: file.bytes[first..<(first + kept * size)]))
      for (position, from) in moved {
        output.write(file.uncheckedReference(first, from), size: size, at: base + position * size)
      }
      if !keys {
        for (position, object) in replaced {
          output.write(UInt64(object), size: size, at: base + position * size)
        }
      }
      for entry in added { output.append(UInt64(keys ? entry.key : entry.value), size: size) }
    }
  }
}
