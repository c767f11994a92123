import Foundation

/// Reads a binary property list (`bplist00`, Apple's CFBinaryPList format, see
/// ``BinaryPropertyListWriter``) straight into canonical values (see ``PropertyListDocument``).
///
/// Only for bytes ``BinaryPropertyListValidator`` accepted (``PropertyListValidator`` runs
/// first, as for every parse): it bounds the nesting, the expanded size and the types. Every
/// read is still checked against the object area, so an inconsistency throws instead of
/// reading outside the bytes. Values are what Foundation's `PropertyListSerialization` reads from
/// the same bytes after normalization: integers of 1, 2 and 4 bytes are unsigned, of 8 bytes
/// signed, of 16 bytes the unsigned low 8 bytes (`Int` when they fit, else `UInt64`); 4-byte
/// reals widen to `Double`; dates are seconds since 2001-01-01 00:00:00 UTC; when a dictionary
/// holds a key twice, the first value is kept, as CoreFoundation's reader does.
struct BinaryPropertyListReader {
  let bytes: UnsafeRawBufferPointer
  private let offsetSize: Int
  let referenceSize: Int
  private let objectCount: Int
  private let tableOffset: Int
  let topObject: Int

  /// The value of the top object of `data`.
  ///
  /// - Throws: ``PropertyListRejection`` when the bytes are not a consistent binary property list.
  static func value(of data: Data) throws(PropertyListRejection) -> Any {
    try reading(data) { reader throws(PropertyListRejection) in
      try reader.value(reader.topObject, depth: 1)
    }
  }

  /// The top object of `data` as a file's root: a top dictionary is keyed by exact keys
  /// (``PropertyListKey``), so keys that differ only in Unicode normalization stay two entries;
  /// any other object is ``value(of:)``'s.
  ///
  /// - Throws: ``PropertyListRejection`` when the bytes are not a consistent binary property list.
  static func root(of data: Data) throws(PropertyListRejection) -> Any {
    try reading(data) { reader throws(PropertyListRejection) in try reader.root() }
  }

  /// The top object, as ``root(of:)`` reads it.
  private func root() throws(PropertyListRejection) -> Any {
    guard let (start, count) = try topDictionaryEntries() else {
      return try value(topObject, depth: 1)
    }
    var root: [PropertyListKey: Any] = [:]
    root.reserveCapacity(count)
    try add(
      0..<count, ofEntries: start, count, depth: 1, to: &root)
    return root
  }

  /// The top object of `data`, as ``root(of:)`` reads it, giving back to the
  /// system the whole pages of `data`'s bytes that reading the top dictionary is done with, as
  /// it goes (see ``BinaryPropertyListPageRelease``): at a million keys, the file's bytes no
  /// longer add to the values built from them at the memory peak of an open.
  ///
  /// - Parameter data: Bytes no other `Data` shares (a file's bytes just read): the pages given
  ///   back read as zeros afterwards.
  /// - Returns: The top object, and how many pages were given back.
  /// - Throws: ``PropertyListRejection`` when the bytes are not a consistent binary property list.
  static func value(releasingPagesOf data: Data) throws(PropertyListRejection)
    -> (root: Any, releasedPages: Int)
  {
    try reading(data) { reader throws(PropertyListRejection) in
      guard let (start, count) = try reader.topDictionaryEntries(),
        var pages = BinaryPropertyListPageRelease(reader: reader, entries: start, count: count)
      else { return (try reader.root(), 0) }
      var root: [PropertyListKey: Any] = [:]
      root.reserveCapacity(count)
      for first in stride(from: 0, to: count, by: BinaryPropertyListPageRelease.entriesAtOnce) {
        let positions = first..<min(first + BinaryPropertyListPageRelease.entriesAtOnce, count)
        try reader.add(
          positions, ofEntries: start, count, depth: 1, to: &root)
        pages.release(after: positions.upperBound - 1)
      }
      return (root, pages.releasedPages)
    }
  }

  /// The value of the top object of `data`, read again after a change: when it is a dictionary,
  /// each of its values that equals `previous`'s value for the key is `previous`'s value itself
  /// (strings are compared with the file's bytes, so unchanged ones are neither decoded nor
  /// allocated again), and `changedKeys` names every key added, changed or removed since
  /// `previous`.
  ///
  /// `entries` are the dictionary's entries, for the next re-read (see
  /// ``changes(of:since:previous:)``).
  ///
  /// - Parameter previous: The values read or written before.
  /// - Returns: The top object, and nil keys and entries when it is not a dictionary.
  /// - Throws: ``PropertyListRejection`` when the bytes are not a consistent binary property list.
  static func value(of data: Data, comparingTo previous: [PropertyListKey: Any])
    throws(PropertyListRejection)
    -> (root: Any, changedKeys: Set<PropertyListKey>?, entries: PropertyListEntries?)
  {
    try reading(data) { reader throws(PropertyListRejection) in
      if let reread = try reader.topDictionary(comparingTo: previous) { return reread }
      return (try reader.value(reader.topObject, depth: 1), nil, nil)
    }
  }

  /// `body`'s result for a reader of `data`.
  static func reading<Result>(
    _ data: Data, _ body: (BinaryPropertyListReader) throws(PropertyListRejection) -> Result
  ) throws(PropertyListRejection) -> Result {
    do {
      return try data.withUnsafeBytes { bytes in
        try body(try BinaryPropertyListReader(bytes: bytes))
      }
    } catch let rejection as PropertyListRejection {
      throw rejection
    } catch {
      throw PropertyListRejection(reason: "\(error)")
    }
  }

  init(bytes: UnsafeRawBufferPointer) throws(PropertyListRejection) {
    self.bytes = bytes
    guard bytes.count >= 8 + 1 + 32, bytes.starts(with: "bplist00".utf8) else {
      throw Self.inconsistent()
    }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw Self.inconsistent()
    }
    let count = bytes.bigEndianInteger(at: trailer + 8, size: 8)
    let top = bytes.bigEndianInteger(at: trailer + 16, size: 8)
    let table = bytes.bigEndianInteger(at: trailer + 24, size: 8)
    guard count <= UInt64(bytes.count), top < count, table >= 9, table <= UInt64(trailer),
      UInt64(trailer) - table >= count * UInt64(offsetSize)
    else { throw Self.inconsistent() }
    objectCount = Int(count)
    topObject = Int(top)
    tableOffset = Int(table)
  }

  func value(_ index: Int, depth: Int) throws(PropertyListRejection) -> Any {
    guard depth <= PropertyListLimits.preferences.maximumDepth else { throw Self.inconsistent() }
    let offset = try objectOffset(index)
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0 where low == 0x8: return false
    case 0x0 where low == 0x9: return true
    case 0x1 where low <= 3:
      try require(offset + 1, 1 << low)
      let raw = bytes.bigEndianInteger(at: offset + 1, size: 1 << low)
      return low == 3 ? Int(Int64(bitPattern: raw)) : Int(raw)
    case 0x1 where low == 4:
      try require(offset + 1, 16)
      let unsigned = bytes.bigEndianInteger(at: offset + 9, size: 8)
      return unsigned <= UInt64(Int.max) ? Int(unsigned) : unsigned
    case 0x2 where low == 2:
      try require(offset + 1, 4)
      return Double(Float(bitPattern: UInt32(bytes.bigEndianInteger(at: offset + 1, size: 4))))
    case 0x2 where low == 3:
      try require(offset + 1, 8)
      return Double(bitPattern: bytes.bigEndianInteger(at: offset + 1, size: 8))
    case 0x3 where low == 3:
      try require(offset + 1, 8)
      return Date(
        timeIntervalSinceReferenceDate: Double(
          bitPattern: bytes.bigEndianInteger(at: offset + 1, size: 8)))
    case 0x4:
      let (start, count) = try lengthAndStart(offset, low)
      try require(start, count)
      return SystemMemory.data(
        copying: UnsafeRawBufferPointer(rebasing: bytes[start..<start + count]))
    case 0x5, 0x6:
      return try string(at: offset)
    case 0xA:
      let (start, count) = try lengthAndStart(offset, low)
      try require(start, count * referenceSize)
      var array: [Any] = []
      array.reserveCapacity(count)
      for position in 0..<count {
        array.append(try value(try reference(start, position), depth: depth + 1))
      }
      return array
    case 0xD:
      let (start, count) = try lengthAndStart(offset, low)
      try require(start, 2 * count * referenceSize)
      return try dictionary(entries: start, count, depth: depth)
    default:
      throw Self.inconsistent()
    }
  }

  /// The nested dictionary whose `count` key references start at byte `start`: a
  /// `[String: Any]`, or — when two of its keys are equal as `String`s (canonical equivalence)
  /// but differ in their Unicode scalars — a `[PropertyListKey: Any]`, which holds both, as the
  /// file, CoreFoundation and python's `plistlib` do (the entries read so far move to it, and
  /// the others are read into it). A key held twice exactly keeps its first value (as at the
  /// top).
  private func dictionary(entries start: Int, _ count: Int, depth: Int)
    throws(PropertyListRejection) -> Any
  {
    var dictionary: [String: Any] = [:]
    dictionary.reserveCapacity(count)
    for position in 0..<count {
      let key = try string(at: try objectOffset(try reference(start, position)))
      let element = try value(try reference(start, count + position), depth: depth + 1)
      guard let first = dictionary.updateValue(element, forKey: key) else { continue }
      // The dictionary kept the key met first; told apart from this one by their scalars.
      let earlier = PropertyListKey(dictionary.keys[dictionary.index(forKey: key)!])
      guard earlier != PropertyListKey(key) else {
        dictionary[key] = first
        continue
      }
      // The entries read so far move to exact keys, and the others are read into them.
      var exact = [PropertyListKey: Any](exactKeys: dictionary)
      exact[earlier] = first
      exact[PropertyListKey(key)] = element
      try add(position + 1..<count, ofEntries: start, count, depth: depth, to: &exact)
      return exact
    }
    return dictionary
  }

  /// Adds the entries at `positions` of the dictionary at `depth` whose `count` key references
  /// start at byte `start` (its value references after them) to `dictionary`, by exact key; a
  /// key held twice keeps its first value.
  func add(
    _ positions: Range<Int>, ofEntries start: Int, _ count: Int, depth: Int,
    to dictionary: inout [PropertyListKey: Any]
  ) throws(PropertyListRejection) {
    for position in positions {
      let key = PropertyListKey(try string(at: try objectOffset(try reference(start, position))))
      let element = try value(try reference(start, count + position), depth: depth + 1)
      if let first = dictionary.updateValue(element, forKey: key) { dictionary[key] = first }
    }
  }

  /// The top dictionary read against `previous`, with its entries (see
  /// ``value(of:comparingTo:)``), or nil when
  /// the top object is not a dictionary.
  private func topDictionary(comparingTo previous: [PropertyListKey: Any])
    throws(PropertyListRejection)
    -> (root: Any, changedKeys: Set<PropertyListKey>?, entries: PropertyListEntries?)?
  {
    guard let (start, count) = try topDictionaryEntries() else { return nil }
    var dictionary: [PropertyListKey: Any] = [:]
    dictionary.reserveCapacity(count)
    var changedKeys = Set<PropertyListKey>()
    var keptKeys = 0
    var entries = PropertyListEntries(keys: [], fingerprints: [])
    entries.keys.reserveCapacity(count)
    entries.fingerprints.reserveCapacity(count)
    for position in 0..<count {
      let keyObject = try reference(start, position)
      let key = PropertyListKey(try string(at: try objectOffset(keyObject)))
      let index = try reference(start, count + position)
      // Every position, a key held twice included (the next re-read then parses whole).
      entries.keys.append(key)
      entries.fingerprints.append(try fingerprint(keyObject, index))
      let old = previous[key]
      var isChanged = true
      var element: Any
      if let old, try stringObject(index, equals: old) {
        (element, isChanged) = (old, false)
      } else {
        element = try value(index, depth: 2)
        if let old, propertyListValuesEqual(old, element) { (element, isChanged) = (old, false) }
      }
      // Two lookups per key: the insertion tells a key held twice, whose first value is kept.
      if let first = dictionary.updateValue(element, forKey: key) {
        dictionary[key] = first
        continue
      }
      if old != nil { keptKeys += 1 }
      if isChanged { changedKeys.insert(key) }
    }
    if keptKeys < previous.count {
      for key in previous.keys where dictionary.index(forKey: key) == nil {
        changedKeys.insert(key)
      }
    }
    return (dictionary, changedKeys, entries)
  }

  /// Whether object `index` is an ASCII string whose bytes are those of `value` (false for any
  /// other object: decode it to compare).
  private func stringObject(_ index: Int, equals value: Any) throws(PropertyListRejection) -> Bool {
    let offset = try objectOffset(index)
    guard bytes[offset] >> 4 == 0x5, var string = value as? String else { return false }
    let (start, count) = try lengthAndStart(offset, Int(bytes[offset] & 0x0F))
    try require(start, count)
    return string.withUTF8 { utf8 in
      utf8.count == count
        && (count == 0 || memcmp(utf8.baseAddress!, bytes.baseAddress! + start, count) == 0)
    }
  }

  /// The string object at byte `offset`: ASCII (marker 0x5) or UTF-16 big-endian (0x6).
  func string(at offset: Int) throws(PropertyListRejection) -> String {
    let marker = bytes[offset]
    let (start, count) = try lengthAndStart(offset, Int(marker & 0x0F))
    switch marker >> 4 {
    case 0x5:
      try require(start, count)
      return String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<start + count]), as: UTF8.self)
    case 0x6:
      let (size, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw Self.inconsistent() }
      try require(start, size)
      return String(unsafeUninitializedCapacity: 3 * count) { utf8 in
        var written = 0
        var units = (0..<count).lazy.map {
          UInt16(self.bytes[start + 2 * $0]) << 8 | UInt16(self.bytes[start + 2 * $0 + 1])
        }
        .makeIterator()
        var decoder = UTF16()
        while case .scalarValue(let scalar) = decoder.decode(&units) {
          for byte in UTF8.encode(scalar)! {
            utf8[written] = byte
            written += 1
          }
        }
        return written
      }
    default:
      throw Self.inconsistent()
    }
  }

  func reference(_ start: Int, _ position: Int) throws(PropertyListRejection) -> Int {
    let object = bytes.bigEndianInteger(at: start + position * referenceSize, size: referenceSize)
    guard object < UInt64(objectCount) else { throw Self.inconsistent() }
    return Int(object)
  }

  func objectOffset(_ index: Int) throws(PropertyListRejection) -> Int {
    let offset = Int(
      bytes.bigEndianInteger(at: offsetTableSlot(index).lowerBound, size: offsetSize))
    guard offset >= 8, offset < tableOffset else { throw Self.inconsistent() }
    return offset
  }

  /// The bytes of object `index`'s offset in the offset table.
  func offsetTableSlot(_ index: Int) -> Range<Int> {
    let start = tableOffset + index * offsetSize
    return start..<start + offsetSize
  }

  /// The count of a data, string or container object (in its marker, or the integer object
  /// after it when the marker's count is 0xF) and where its contents start.
  func lengthAndStart(_ offset: Int, _ low: Int) throws(PropertyListRejection) -> (
    start: Int, count: Int
  ) {
    guard low == 0xF else { return (offset + 1, low) }
    try require(offset + 1, 1)
    let countMarker = bytes[offset + 1]
    guard countMarker >> 4 == 0x1, countMarker & 0x0F <= 3 else { throw Self.inconsistent() }
    let size = 1 << Int(countMarker & 0x0F)
    try require(offset + 2, size)
    let count = bytes.bigEndianInteger(at: offset + 2, size: size)
    guard count <= UInt64(tableOffset) else { throw Self.inconsistent() }
    return (offset + 2 + size, Int(count))
  }

  /// Throws unless `count` bytes from `start` lie before the offset table.
  func require(_ start: Int, _ count: Int) throws(PropertyListRejection) {
    guard count >= 0, start <= tableOffset, count <= tableOffset - start else {
      throw Self.inconsistent()
    }
  }

  static func inconsistent() -> PropertyListRejection {
    PropertyListRejection(
      reason: "binary property list: an offset, length or reference is inconsistent")
  }

}
