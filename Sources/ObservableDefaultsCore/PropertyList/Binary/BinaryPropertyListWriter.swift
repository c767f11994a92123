import Foundation

/// Writes a canonical property-list value (see ``PropertyListDocument``) as a binary property
/// list: Apple's `bplist00` format (CFBinaryPList), in one pass over the values and one over the
/// objects, with equal scalars stored once (``BinaryPropertyListObjectTable``).
///
/// The format: the header `bplist00`; the objects, each a marker byte (type in the high 4 bits,
/// a length or size in the low 4, 0xF meaning an integer object with the length follows) and its
/// contents, big-endian; the offset table (each object's byte offset); a 32-byte trailer (offset
/// and reference sizes, object count, top object, offset table's offset). As Apple's writer
/// does: integers 0…2⁶⁴−1 take 1, 2, 4 or 8 bytes, negative integers 8, integers above
/// `Int64.max` 16 (high 8 bytes zero); reals 8 bytes; dates the 8-byte real of seconds since
/// 2001-01-01 00:00:00 UTC; strings ASCII when every character is, else UTF-16 big-endian;
/// a dictionary's key references come before its value references; objects are numbered
/// depth-first, a container before its children; offset and reference sizes are 1, 2, 4 or 8.
enum BinaryPropertyListWriter {
  /// The bytes of `root` as a binary property list.
  ///
  /// - Parameter root: A property-list value, normally the top-level dictionary of a file.
  /// - Throws: ``PropertyListEncodingFailure`` naming the first value that is not a
  ///   property-list value (or a date that is not a finite time), or when memory for the bytes
  ///   runs out.
  static func data(of root: Any) throws(PropertyListEncodingFailure) -> Data {
    var table = BinaryPropertyListObjectTable(sizedFor: root as? [PropertyListKey: Any] ?? [:])
    _ = try add(root, to: &table)
    return try write(table)
  }

  /// Adds `value` and everything it holds; returns its object index.
  static func add(_ value: Any, to table: inout BinaryPropertyListObjectTable)
    throws(PropertyListEncodingFailure) -> Int
  {
    let kind = type(of: value)
    if kind == String.self { return table.addScalar { appendString(value as! String, to: &$0) } }
    if kind == Int.self { return table.addScalar { appendInteger(value as! Int, to: &$0) } }
    if kind == Bool.self { return table.addScalar { $0.append(value as! Bool ? 0x09 : 0x08) } }
    if kind == Double.self {
      return table.addScalar { appendReal(0x23, value as! Double, to: &$0) }
    }
    if kind == Date.self {
      let seconds = (value as! Date).timeIntervalSinceReferenceDate
      // The reader refuses such a date: the file would be unreadable.
      guard seconds.isFinite else {
        throw PropertyListEncodingFailure(reason: "a date that is not a finite time (\(seconds))")
      }
      return table.addScalar { appendReal(0x33, seconds, to: &$0) }
    }
    if kind == Data.self {
      let data = value as! Data
      if data.count >= BinaryPropertyListObjectTable.largeScalarBytes {
        return table.addLargeData(data)
      }
      return table.addScalar { bytes in
        appendMarker(0x40, count: data.count, to: &bytes)
        bytes.append(contentsOf: data)
      }
    }
    if kind == UInt64.self {
      let unsigned = value as! UInt64
      if unsigned <= UInt64(Int.max) { return try add(Int(unsigned), to: &table) }
      return table.addScalar { bytes in
        bytes.append(0x14)
        bytes.append(contentsOf: repeatElement(0, count: 8))
        appendBigEndian(unsigned, size: 8, to: &bytes)
      }
    }
    if kind == [PropertyListKey: Any].self {
      return try add(dictionary: value as! [PropertyListKey: Any], to: &table, text: \.string)
    }
    if kind == [String: Any].self {
      return try add(dictionary: value as! [String: Any], to: &table, text: { $0 })
    }
    if kind == [Any].self {
      let array = value as! [Any]
      let (index, start) = table.addContainer(.array, count: array.count)
      for (position, element) in array.enumerated() {
        table.setReference(try add(element, to: &table), at: start + position)
      }
      return index
    }
    guard let canonical = PropertyListValue.normalized(value), type(of: canonical) != kind else {
      throw PropertyListEncodingFailure(
        reason: "a value of type \(kind) is not a property-list value")
    }
    return try add(canonical, to: &table)
  }

  /// Adds a dictionary whose keys are `Key`s (exact keys, or `String`s), each written as its
  /// `text`.
  private static func add<Key>(
    dictionary: [Key: Any], to table: inout BinaryPropertyListObjectTable,
    text: (Key) -> String
  ) throws(PropertyListEncodingFailure) -> Int {
    let count = dictionary.count
    let (index, start) = table.addContainer(.dictionary, count: count)
    // Keys first, then values, in the dictionary's one iteration order.
    for (position, key) in dictionary.keys.enumerated() {
      table.setReference(
        table.addScalar { appendString(text(key), to: &$0) }, at: start + position)
    }
    for (position, element) in dictionary.values.enumerated() {
      table.setReference(try add(element, to: &table), at: start + count + position)
    }
    return index
  }

  /// Writes the header, the objects in index order, the offset table and the trailer, through
  /// one pointer into a buffer of an upper bound of the size.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when memory for the buffer runs out: the flush
  ///   then fails and leaves the file as it was (the process trapped).
  static func write(_ table: BinaryPropertyListObjectTable) throws(PropertyListEncodingFailure)
    -> Data
  {
    try pieces(of: table, leavingOutLargeData: false)[0]
  }

  /// The bytes of the file as ``write(_:)`` writes them, in pieces to be written one after the
  /// other: with `leavingOutLargeData`, each large data value the table keeps as it was set
  /// (``BinaryPropertyListObjectTable/largeData``) is a piece of its own, the value itself,
  /// between pieces of the one buffer the rest is written into (copying a 50 MB value into the
  /// file's bytes was a new 50 MB block, its page faults and the copy, at every flush); else
  /// one piece.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when memory for the buffer runs out.
  static func pieces(of table: BinaryPropertyListObjectTable, leavingOutLargeData: Bool)
    throws(PropertyListEncodingFailure) -> [Data]
  {
    let objects = table.objects
    let referenceSize = byteCount(UInt64(objects.count))
    let leftOut = leavingOutLargeData ? table.largeData.reduce(0) { $0 + $1.count } : 0
    // Each container's marker and count take at most 10 bytes; offsets at most 8 bytes each.
    let bound =
      8 + table.scalarByteCount - leftOut + objects.count * (10 + 8) + table.references.count
      * referenceSize + 32
    var offsets = [Int](repeating: 0, count: objects.count)
    // Written in place into the bytes the `Data` keeps: a `[UInt8]` copied into a `Data` was one
    // more copy of every value (50 ms and 50 MB more for a 50 MB value).
    guard let buffer = SystemMemory.allocate(byteCount: bound)?.assumingMemoryBound(to: UInt8.self)
    else {
      throw PropertyListEncodingFailure(
        reason: "out of memory for a property list of \(bound) bytes")
    }
    var output = BigEndianOutput(
      base: buffer, bound: bound, leavingOutLargeData: leavingOutLargeData)
    output.append("bplist00".utf8)
    appendObjects(of: table, numberedFrom: 0, referenceSize: referenceSize, to: &output) {
      offsets[$0] = $1
    }
    output.appendOffsetTable(
      offsets, objectCount: objects.count, top: 0, referenceSize: referenceSize)
    return output.pieces()
  }

  /// Writes the objects of `table` in index order, each container's references to object `i` of
  /// the table as references to object `first + i` of the file; tells `place` each object's
  /// index in the table and its byte offset.
  static func appendObjects(
    of table: BinaryPropertyListObjectTable, numberedFrom first: Int, referenceSize: Int,
    to output: inout BigEndianOutput, _ place: (Int, Int) -> Void
  ) {
    table.scalarBytes.withUnsafeBufferPointer { scalars in
      table.references.withUnsafeBufferPointer { references in
        for (index, object) in table.objects.enumerated() {
          place(index, output.offset)
          switch object.kind {
          case .scalar:
            output.append(
              UnsafeBufferPointer(rebasing: scalars[object.start..<object.start + object.count]))
          case .largeData:
            let data = table.largeData[object.start]
            output.appendMarker(0x40, count: data.count)
            output.append(data)
          case .array, .dictionary:
            let isDictionary = object.kind == .dictionary
            output.appendMarker(isDictionary ? 0xD0 : 0xA0, count: object.count)
            let end = object.start + (isDictionary ? 2 : 1) * object.count
            for reference in references[object.start..<end] {
              output.append(UInt64(first + reference), size: referenceSize)
            }
          }
        }
      }
    }
  }

  /// A string: ASCII (marker 0x5) when every byte of its UTF-8 is below 0x80, else UTF-16
  /// big-endian (marker 0x6) with its count of UTF-16 code units.
  static func appendString(_ string: String, to bytes: inout [UInt8]) {
    var contiguous = string
    let wasASCII = contiguous.withUTF8 { utf8 in
      guard isASCII(utf8) else { return false }
      appendMarker(0x50, count: utf8.count, to: &bytes)
      bytes.append(contentsOf: utf8)
      return true
    }
    guard !wasASCII else { return }
    appendMarker(0x60, count: string.utf16.count, to: &bytes)
    for unit in string.utf16 {
      bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
      bytes.append(UInt8(truncatingIfNeeded: unit))
    }
  }

  /// Whether every byte is below 0x80, checked 8 bytes at a time.
  private static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = utf8.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var offset = 0
    var high: UInt64 = 0
    while offset + 8 <= utf8.count {
      high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < utf8.count {
      high |= UInt64(base[offset])
      offset += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// An integer object: 1, 2, 4 or 8 bytes for 0…`Int.max`, 8 bytes for a negative integer.
  private static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
    let size = value < 0 ? 8 : byteCount(UInt64(value))
    bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
    appendBigEndian(UInt64(bitPattern: Int64(value)), size: size, to: &bytes)
  }

  /// An 8-byte real (marker 0x23) or date (marker 0x33).
  private static func appendReal(_ marker: UInt8, _ value: Double, to bytes: inout [UInt8]) {
    bytes.append(marker)
    appendBigEndian(value.bitPattern, size: 8, to: &bytes)
  }

  /// A marker with a count: in its low 4 bits below 15, else 0xF and an integer object.
  static func appendMarker(_ marker: UInt8, count: Int, to bytes: inout [UInt8]) {
    if count < 15 {
      bytes.append(marker | UInt8(count))
    } else {
      bytes.append(marker | 0x0F)
      appendInteger(count, to: &bytes)
    }
  }

  private static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0[(8 - size)...]) }
  }

  /// The smallest of 1, 2, 4 and 8 bytes that holds `value` (Apple's writer's sizes).
  static func byteCount(_ value: UInt64) -> Int {
    value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
  }
}

/// A cursor writing into memory sized beforehand (no capacity check per byte).
struct BigEndianOutput {
  let base: UnsafeMutablePointer<UInt8>
  /// The bytes at ``base``: the most this output may write.
  let bound: Int
  /// The bytes written into ``base``.
  private(set) var count = 0
  /// Whether a large data value is left out of ``base`` (``append(_:)-(Data)``).
  let leavesOutLargeData: Bool
  /// The large data values and pieces left out, each with the count of bytes written into
  /// ``base`` before it: the file is the bytes up to there, the value, then the bytes that
  /// follow.
  private(set) var leftOut: [(at: Int, value: Data)] = []
  /// The bytes of the values and pieces left out.
  private var leftOutCount = 0

  /// A cursor at `base`, which holds `bound` bytes; with `leavingOutLargeData`, see ``leftOut``.
  init(base: UnsafeMutablePointer<UInt8>, bound: Int, leavingOutLargeData: Bool = false) {
    self.base = base
    self.bound = bound
    leavesOutLargeData = leavingOutLargeData
  }

  /// Where the next byte goes in the file: the bytes written and those left out before it.
  var offset: Int { count + leftOutCount }

  /// Appends the bytes of a large data value, or leaves them out (``leftOut``).
  mutating func append(_ value: Data) {
    guard leavesOutLargeData else {
      value.withUnsafeBytes { append($0.assumingMemoryBound(to: UInt8.self)) }
      return
    }
    appendPiece(value)
  }

  /// Appends `bytes` as a piece of their own, never copied into ``base`` (``leftOut``): bytes
  /// another buffer holds already, such as a file's own.
  mutating func appendPiece(_ bytes: Data) {
    leftOut.append((count, bytes))
    leftOutCount += bytes.count
  }

  mutating func append(_ bytes: some Collection<UInt8>) {
    for byte in bytes {
      base[count] = byte
      count += 1
    }
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    (base + count).update(from: bytes.baseAddress!, count: bytes.count)
    count += bytes.count
  }

  mutating func appendBytes(of raw: UnsafeRawBufferPointer) {
    guard let source = raw.baseAddress else { return }
    UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: raw.count)
    count += raw.count
  }

  /// `value`'s low `size` bytes (1…8), most significant first, in one store of 8 bytes: the
  /// bytes past the `size` appended are written over by what is appended next. Every output
  /// ends with its trailer
  /// (``appendTrailer(offsetSize:referenceSize:objectCount:top:tableOffset:)``, 32 bytes,
  /// appended last, 8 at a time), which ``bound`` holds, so no store passes the buffer's end
  /// (asserted in debug builds). A byte at a time, the offset table was 94 instructions an
  /// entry of a one-key write into a 100,000-key binary suite.
  @inline(__always)
  mutating func append(_ value: UInt64, size: Int) {
    assert(count + 8 <= bound, "an integer appended with fewer than 8 bytes after it")
    let word = (value << UInt64(8 &* (8 &- size))).bigEndian
    UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
    count += size
  }

  /// The offset table (`offsets`, each in the fewest bytes that hold the table's own offset)
  /// and the trailer, which names object `top` as the top object.
  mutating func appendOffsetTable(
    _ offsets: [Int], objectCount: Int, top: Int, referenceSize: Int
  ) {
    let tableOffset = offset
    let offsetSize = BinaryPropertyListWriter.byteCount(UInt64(tableOffset))
    for offset in offsets { append(UInt64(offset), size: offsetSize) }
    appendTrailer(
      offsetSize: offsetSize, referenceSize: referenceSize, objectCount: objectCount, top: top,
      tableOffset: tableOffset)
  }

  /// The trailer of a file whose offset table starts at `tableOffset`.
  mutating func appendTrailer(
    offsetSize: Int, referenceSize: Int, objectCount: Int, top: Int, tableOffset: Int
  ) {
    append([0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
    append(UInt64(objectCount), size: 8)
    append(UInt64(top), size: 8)
    append(UInt64(tableOffset), size: 8)
  }

  /// Writes `value`'s low `size` bytes (1…8), most significant first, over the bytes written
  /// at `offset`.
  func write(_ value: UInt64, size: Int, at offset: Int) {
    var shifted = value << UInt64(8 * (8 - size))
    for index in offset..<(offset + size) {
      base[index] = UInt8(truncatingIfNeeded: shifted >> 56)
      shifted <<= 8
    }
  }

  /// The file's bytes in pieces to be written one after the other: the bytes written (as
  /// ``data()`` gives them) with the values left out (``leftOut``) in their places, each a
  /// piece of its own; no piece is empty.
  func pieces() -> [Data] {
    let written = data()
    var pieces: [Data] = []
    var start = 0
    for (end, value) in leftOut {
      pieces += [written[start..<end], value]
      start = end
    }
    return (pieces + [written[start...]]).filter { !$0.isEmpty }
  }

  /// The bytes written, in ``base`` (this output's memory, ``bound`` bytes from
  /// `SystemMemory.allocate`, handed over to the result), whose unused end is given back.
  func data() -> Data {
    let block = UnsafeMutableRawPointer(base)
    let kept = Swift.max(count, 1)
    guard let bytes = SystemMemory.resize(block, from: bound, to: kept) else {
      return SystemMemory.data(taking: block, count: count, byteCount: bound)
    }
    return SystemMemory.data(taking: bytes, count: count, byteCount: kept)
  }

  /// A marker with a count: in its low 4 bits below 15, else 0xF and an integer object.
  mutating func appendMarker(_ marker: UInt8, count value: Int) {
    if value < 15 {
      append(CollectionOfOne(marker | UInt8(value)))
    } else {
      let size = BinaryPropertyListWriter.byteCount(UInt64(value))
      append([marker | 0x0F, 0x10 | UInt8(size.trailingZeroBitCount)])
      append(UInt64(value), size: size)
    }
  }
}

/// A value that cannot be written as a property list.
package struct PropertyListEncodingFailure: Error, Equatable {
  /// One sentence for people, naming the value's type.
  package let reason: String
}
