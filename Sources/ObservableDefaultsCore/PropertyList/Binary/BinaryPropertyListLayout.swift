/// Where the parts of a binary property list (`bplist00`) lie, read from its trailer and checked
/// against the file's length: the offset table, the sizes of offsets and references, the object
/// count and the top object. A plain value (no reference counting), so that ``BinaryPropertyListScanner``
/// and the walk of ``BinaryPropertyListPageRelease`` read through it at no cost.
struct BinaryPropertyListLayout {
  let bytes: UnsafeRawBufferPointer
  let offsetSize: Int
  let referenceSize: Int
  let objectCount: Int
  let topObject: Int
  /// Where the offset table starts: the end of the object area.
  let tableOffset: Int

  /// Reads and checks the header and trailer.
  ///
  /// - Throws: ``PropertyListRejection`` when they are inconsistent with the file's length.
  init(bytes: UnsafeRawBufferPointer) throws(PropertyListRejection) {
    self.bytes = bytes
    let trailerSize = 32
    guard bytes.starts(with: "bplist00".utf8) else {
      throw Self.rejection("only version 00 is supported (\"bplist00\")")
    }
    guard bytes.count >= 8 + 1 + trailerSize else { throw Self.rejection("the file is too short") }
    let trailer = bytes.count - trailerSize
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    let count = bytes.bigEndianInteger(at: trailer + 8, size: 8)
    let top = bytes.bigEndianInteger(at: trailer + 16, size: 8)
    let table = bytes.bigEndianInteger(at: trailer + 24, size: 8)
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw Self.rejection("the trailer's offset or reference size is not 1 to 8 bytes")
    }
    guard count >= 1, count <= UInt64(bytes.count), top < count else {
      throw Self.rejection("the trailer's object count or top object is out of range")
    }
    guard table >= 9, table < UInt64(trailer),
      UInt64(trailer) - table >= count * UInt64(offsetSize)
    else { throw Self.rejection("the offset table lies outside the file") }
    objectCount = Int(count)
    topObject = Int(top)
    tableOffset = Int(table)
  }

  /// Object `index`'s offset as the offset table holds it (not yet checked), clamped to `Int.max`:
  /// an 8-byte offset of 2⁶³ or more (in a file no writer made) then reads as out of range where
  /// it is checked, instead of trapping, and stays positive for the splice that copies the
  /// offsets of objects no reference reaches.
  func uncheckedOffset(_ index: Int) -> Int {
    Int(clamping: bytes.bigEndianInteger(at: tableOffset + index * offsetSize, size: offsetSize))
  }

  /// Reference `position` of the references starting at byte `start`, as the file holds it (not
  /// yet checked against the object count).
  func uncheckedReference(_ start: Int, _ position: Int) -> UInt64 {
    bytes.bigEndianInteger(at: start + position * referenceSize, size: referenceSize)
  }

  /// The count of a data, string or container object (from its marker, or the integer object
  /// after it when the marker's count is 0xF) and where its contents start.
  func lengthAndStart(_ index: Int, at offset: Int) throws(PropertyListRejection) -> (
    start: Int, count: Int
  ) {
    let low = Int(bytes[offset] & 0x0F)
    guard low == 0xF else { return (offset + 1, low) }
    try requireBytes(offset + 1, 1, index, offset)
    let countMarker = bytes[offset + 1]
    guard countMarker >> 4 == 0x1, countMarker & 0x0F <= 3 else {
      throw objectRejection(index, offset, "has a length that is not an integer of 1 to 8 bytes")
    }
    let size = 1 << Int(countMarker & 0x0F)
    try requireBytes(offset + 2, size, index, offset)
    let count = bytes.bigEndianInteger(at: offset + 2, size: size)
    guard count <= UInt64(tableOffset) else {
      throw objectRejection(index, offset, "is longer than the file")
    }
    return (offset + 2 + size, Int(count))
  }

  /// Throws unless `count` bytes from `start` lie before the offset table (object `index` at
  /// byte `offset` is named).
  func requireBytes(_ start: Int, _ count: Int, _ index: Int, _ offset: Int)
    throws(PropertyListRejection)
  {
    guard count >= 0, start <= tableOffset, count <= tableOffset - start else {
      throw objectRejection(index, offset, "runs past the end of the object area")
    }
  }

  /// Why object `index` at byte `offset` is refused.
  func objectRejection(_ index: Int, _ offset: Int, _ reason: String) -> PropertyListRejection {
    Self.rejection("object \(index) at byte \(offset) " + reason)
  }

  /// A refusal of a binary property list, for people.
  static func rejection(_ reason: String) -> PropertyListRejection {
    PropertyListRejection(reason: "binary property list: " + reason)
  }
}
