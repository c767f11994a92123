/// Walks the object table of a binary property list (`bplist00`, see ``PropertyListValidator``)
/// with every offset, length and reference checked against the file's bounds.
///
/// Each object is checked once; the expanded size of its subtree (values and bytes counted once
/// per reference) and its height are kept, so a chain of arrays that refer to the next one twice
/// is measured in linear time and refused, never expanded.
struct BinaryPropertyListValidator {
  private let bytes: UnsafeRawBufferPointer
  private let limits: PropertyListLimits
  private let offsetSize: Int
  private let referenceSize: Int
  private let objectCount: Int
  private let topObject: Int
  private let tableOffset: Int
  /// The file's expansion limits (see ``PropertyListLimits/maximumObjects(inBinaryFileOf:)``).
  private let maximumObjects: Int
  private let maximumBytes: Int

  private enum Visit: UInt8 { case new, inProgress, done }
  private var visits: [Visit]
  /// Per object, once done: the values and bytes of its subtree, and its height (1 for a scalar).
  private var subtreeObjects: [Int]
  private var subtreeBytes: [Int]
  private var heights: [Int32]

  /// Reads and checks the header and trailer.
  ///
  /// - Throws: ``PropertyListRejection`` when they are inconsistent with the file's length.
  init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) throws(PropertyListRejection) {
    self.bytes = bytes
    self.limits = limits
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
    maximumObjects = limits.maximumObjects(inBinaryFileOf: objectCount)
    maximumBytes = limits.maximumBytes(inBinaryFileOf: bytes.count)
    visits = Array(repeating: .new, count: objectCount)
    subtreeObjects = Array(repeating: 0, count: objectCount)
    subtreeBytes = Array(repeating: 0, count: objectCount)
    heights = Array(repeating: 0, count: objectCount)
  }

  /// Checks every object reachable from the top object and the totals.
  ///
  /// - Throws: ``PropertyListRejection`` naming the first offending object.
  mutating func validate() throws(PropertyListRejection) {
    try visit(topObject, depth: 1)
  }

  /// The first byte above 0x7F of the `count` bytes at `start`, or nil; 8 bytes at a time (a
  /// generic search of the slice was a quarter of validating a 1,000,000-key file).
  private func firstNonASCII(_ start: Int, _ count: Int) -> UInt8? {
    var index = start
    let end = start + count
    while index + 8 <= end,
      bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
    {
      index += 8
    }
    while index < end {
      if bytes[index] >= 0x80 { return bytes[index] }
      index += 1
    }
    return nil
  }

  private mutating func visit(_ index: Int, depth: Int) throws(PropertyListRejection) {
    switch visits[index] {
    case .done:
      guard depth - 1 + Int(heights[index]) <= limits.maximumDepth else { throw tooDeep() }
      return
    case .inProgress:
      throw Self.rejection("object \(index) contains itself")
    case .new:
      break
    }
    guard depth <= limits.maximumDepth else { throw tooDeep() }
    visits[index] = .inProgress
    let offset = Int(bytes.bigEndianInteger(at: tableOffset + index * offsetSize, size: offsetSize))
    guard offset >= 8, offset < tableOffset else {
      throw Self.rejection("object \(index) has an offset outside the object area")
    }
    var objects = 1
    var payload = 0
    var height: Int32 = 1
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    func object(_ reason: String) -> PropertyListRejection {
      Self.rejection("object \(index) at byte \(offset) " + reason)
    }
    switch marker >> 4 {
    case 0x0:
      switch low {
      case 0x8, 0x9: break
      case 0x0: throw object("is null, which preferences cannot hold")
      default: throw object("has the unknown marker 0x\(Self.hex(marker))")
      }
    case 0x1:
      guard low <= 4 else { throw object("is an integer of \(1 << min(low, 15)) bytes") }
      let size = 1 << low
      try requireBytes(offset + 1, size, object)
      if size == 16 {
        guard bytes.bigEndianInteger(at: offset + 1, size: 8) == 0 else {
          throw object(
            "is a 16-byte integer outside 0…18446744073709551615, which Foundation would misread")
        }
      }
    case 0x2:
      guard low == 2 || low == 3 else { throw object("is a real of \(1 << low) bytes") }
      try requireBytes(offset + 1, 1 << low, object)
    case 0x3:
      guard low == 3 else { throw object("has the unknown marker 0x\(Self.hex(marker))") }
      try requireBytes(offset + 1, 8, object)
      let seconds = Double(bitPattern: bytes.bigEndianInteger(at: offset + 1, size: 8))
      guard seconds.isFinite else { throw object("is a date that is not a finite time") }
    case 0x4:
      let (start, count) = try lengthAndStart(offset, low, object)
      try requireBytes(start, count, object)
      payload = count
    case 0x5:
      let (start, count) = try lengthAndStart(offset, low, object)
      try requireBytes(start, count, object)
      if let bad = firstNonASCII(start, count) {
        throw object("is an ASCII string holding the byte 0x\(Self.hex(bad))")
      }
      payload = count
    case 0x6:
      let (start, count) = try lengthAndStart(offset, low, object)
      let (size, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw object("is longer than the file") }
      try requireBytes(start, size, object)
      guard Self.surrogatesArePaired(bytes, start: start, units: count) else {
        throw object("is a UTF-16 string with an unpaired surrogate")
      }
      payload = size
    case 0x8:
      throw object("is a UID (a keyed-archiver reference), which preferences cannot hold")
    case 0xA, 0xD:
      let isDictionary = marker >> 4 == 0xD
      let (start, count) = try lengthAndStart(offset, low, object)
      let (references, overflow) = count.multipliedReportingOverflow(
        by: (isDictionary ? 2 : 1) * referenceSize)
      guard !overflow else { throw object("is longer than the file") }
      try requireBytes(start, references, object)
      for position in 0..<(isDictionary ? 2 * count : count) {
        let child = bytes.bigEndianInteger(
          at: start + position * referenceSize, size: referenceSize)
        guard child < UInt64(objectCount) else {
          throw object("refers to object \(child), beyond the \(objectCount) objects of the file")
        }
        let childIndex = Int(child)
        if isDictionary, position < count, !isString(childIndex) {
          throw object("is a dictionary whose key \(position) is not a string")
        }
        try visit(childIndex, depth: depth + 1)
        objects = Self.saturatingSum(objects, subtreeObjects[childIndex])
        payload = Self.saturatingSum(payload, subtreeBytes[childIndex])
        height = max(height, heights[childIndex] + 1)
      }
    case 0xB:
      throw object("is an ordered set, which preferences cannot hold")
    case 0xC:
      throw object("is a set, which preferences cannot hold")
    default:
      throw object("has the unknown marker 0x\(Self.hex(marker))")
    }
    guard objects <= maximumObjects else {
      throw Self.rejection(
        "it expands to more than \(maximumObjects) values (objects referred to many times)")
    }
    guard payload <= maximumBytes else {
      throw Self.rejection(
        "it expands to more than \(maximumBytes) bytes of strings and data (objects referred to many times)"
      )
    }
    visits[index] = .done
    subtreeObjects[index] = objects
    subtreeBytes[index] = payload
    heights[index] = height
  }

  /// Whether object `index` is a string (ASCII or UTF-16), judged by its marker alone.
  private func isString(_ index: Int) -> Bool {
    let offset = Int(bytes.bigEndianInteger(at: tableOffset + index * offsetSize, size: offsetSize))
    guard offset >= 8, offset < tableOffset else { return false }
    let kind = bytes[offset] >> 4
    return kind == 0x5 || kind == 0x6
  }

  /// The count of a data, string or container object (from its marker, or the integer object
  /// after it when the marker's count is 0xF) and where its contents start.
  private func lengthAndStart(
    _ offset: Int, _ low: Int, _ object: (String) -> PropertyListRejection
  ) throws(PropertyListRejection) -> (start: Int, count: Int) {
    guard low == 0xF else { return (offset + 1, low) }
    try requireBytes(offset + 1, 1, object)
    let countMarker = bytes[offset + 1]
    guard countMarker >> 4 == 0x1, countMarker & 0x0F <= 3 else {
      throw object("has a length that is not an integer of 1 to 8 bytes")
    }
    let size = 1 << Int(countMarker & 0x0F)
    try requireBytes(offset + 2, size, object)
    let count = bytes.bigEndianInteger(at: offset + 2, size: size)
    guard count <= UInt64(tableOffset) else { throw object("is longer than the file") }
    return (offset + 2 + size, Int(count))
  }

  /// Throws unless `count` bytes from `start` lie before the offset table.
  private func requireBytes(
    _ start: Int, _ count: Int, _ object: (String) -> PropertyListRejection
  ) throws(PropertyListRejection) {
    guard count >= 0, start <= tableOffset, count <= tableOffset - start else {
      throw object("runs past the end of the object area")
    }
  }

  private func tooDeep() -> PropertyListRejection {
    Self.rejection("arrays and dictionaries are nested deeper than \(limits.maximumDepth) levels")
  }

  private static func rejection(_ reason: String) -> PropertyListRejection {
    PropertyListRejection(reason: "binary property list: " + reason)
  }

  private static func surrogatesArePaired(_ bytes: UnsafeRawBufferPointer, start: Int, units: Int)
    -> Bool
  {
    var expectingLow = false
    for unit in 0..<units {
      let value = UInt16(bytes[start + 2 * unit]) << 8 | UInt16(bytes[start + 2 * unit + 1])
      let isHigh = (0xD800...0xDBFF).contains(value)
      let isLow = (0xDC00...0xDFFF).contains(value)
      if expectingLow != isLow { return false }
      expectingLow = isHigh
    }
    return !expectingLow
  }

  private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
  }

  private static func hex(_ byte: UInt8) -> String {
    String(byte, radix: 16, uppercase: true)
  }
}
