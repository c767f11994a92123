import Foundation

extension BinaryPropertyListScanner {
  /// A scalar object that passed its checks: where it lies, to decode it
  /// (``value(in:)``), compare or fingerprint its bytes (``range``).
  struct Scalar {
    /// The object's marker byte.
    let marker: UInt8
    /// Where the object starts (its marker).
    let offset: Int
    /// Where its contents start (after the marker and, for a long one, its length).
    let start: Int
    /// Where its bytes end.
    let end: Int

    /// The object's bytes, marker included.
    var range: Range<Int> { offset..<end }

    /// Whether it is a string (ASCII or UTF-16).
    var isString: Bool { marker >> 4 == 0x5 || marker >> 4 == 0x6 }

    /// Whether it is an ASCII string whose bytes are `value`'s UTF-8 (false for any other
    /// object or value: decode it to compare).
    func isASCIIString(equalTo value: Any, in bytes: UnsafeRawBufferPointer) -> Bool {
      guard marker >> 4 == 0x5, var string = value as? String else { return false }
      let count = end - start
      return string.withUTF8 { utf8 in
        utf8.count == count
          && (count == 0 || memcmp(utf8.baseAddress!, bytes.baseAddress! + start, count) == 0)
      }
    }

    /// The value it holds.
    func value(in bytes: UnsafeRawBufferPointer) -> Any {
      let low = Int(marker & 0x0F)
      switch marker >> 4 {
      case 0x0: return low == 0x9
      case 0x1 where low == 4:
        let unsigned = bytes.bigEndianInteger(at: start + 8, size: 8)
        return unsigned <= UInt64(Int.max) ? Int(unsigned) : unsigned
      case 0x1:
        let raw = bytes.bigEndianInteger(at: start, size: 1 << low)
        return low == 3 ? Int(Int64(bitPattern: raw)) : Int(raw)
      case 0x2 where low == 2:
        return Double(Float(bitPattern: UInt32(bytes.bigEndianInteger(at: start, size: 4))))
      case 0x2: return Double(bitPattern: bytes.bigEndianInteger(at: start, size: 8))
      case 0x3:
        return Date(
          timeIntervalSinceReferenceDate: Double(
            bitPattern: bytes.bigEndianInteger(at: start, size: 8)))
      case 0x4:
        return SystemMemory.data(copying: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
      default: return string(in: bytes)
      }
    }

    /// The string it holds (ASCII or UTF-16 big-endian, checked: no unpaired surrogate).
    func string(in bytes: UnsafeRawBufferPointer) -> String {
      guard marker >> 4 == 0x6 else {
        return String(
          decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      }
      let units = (end - start) / 2
      return String(unsafeUninitializedCapacity: 3 * units) { utf8 in
        var written = 0
        var iterator = (0..<units).lazy.map {
          UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1])
        }
        .makeIterator()
        var decoder = UTF16()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
          for byte in UTF8.encode(scalar)! {
            utf8[written] = byte
            written += 1
          }
        }
        return written
      }
    }
  }

  /// Checks the scalar object `index` at byte `offset` (its marker is no container's) and counts
  /// it and its bytes against the limits.
  mutating func scalar(_ index: Int, at offset: Int) throws(PropertyListRejection) -> Scalar {
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    let layout = layout
    func object(_ reason: String) -> PropertyListRejection {
      layout.objectRejection(index, offset, reason)
    }
    var start = offset + 1
    var size: Int
    var payload = 0
    switch marker >> 4 {
    case 0x0:
      switch low {
      case 0x8, 0x9: size = 0
      case 0x0: throw object("is null, which preferences cannot hold")
      default: throw object("has the unknown marker 0x\(Self.hex(marker))")
      }
    case 0x1:
      guard low <= 4 else { throw object("is an integer of \(1 << min(low, 15)) bytes") }
      size = 1 << low
      try layout.requireBytes(start, size, index, offset)
      guard size < 16 || bytes.bigEndianInteger(at: start, size: 8) == 0 else {
        throw object(
          "is a 16-byte integer outside 0…18446744073709551615, which Foundation would misread")
      }
    case 0x2:
      guard low == 2 || low == 3 else { throw object("is a real of \(1 << low) bytes") }
      size = 1 << low
      try layout.requireBytes(start, size, index, offset)
    case 0x3:
      guard low == 3 else { throw object("has the unknown marker 0x\(Self.hex(marker))") }
      size = 8
      try layout.requireBytes(start, size, index, offset)
      let seconds = Double(bitPattern: bytes.bigEndianInteger(at: start, size: 8))
      guard seconds.isFinite else { throw object("is a date that is not a finite time") }
    case 0x4, 0x5:
      (start, size) = try layout.lengthAndStart(index, at: offset)
      try layout.requireBytes(start, size, index, offset)
      if marker >> 4 == 0x5, let bad = firstNonASCII(start, size) {
        throw object("is an ASCII string holding the byte 0x\(Self.hex(bad))")
      }
      payload = size
    case 0x6:
      let units: Int
      (start, units) = try layout.lengthAndStart(index, at: offset)
      let overflow: Bool
      (size, overflow) = units.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw object("is longer than the file") }
      try layout.requireBytes(start, size, index, offset)
      guard layout.surrogatesArePaired(start: start, units: units) else {
        throw object("is a UTF-16 string with an unpaired surrogate")
      }
      payload = size
    case 0x8:
      throw object("is a UID (a keyed-archiver reference), which preferences cannot hold")
    case 0xB:
      throw object("is an ordered set, which preferences cannot hold")
    case 0xC:
      throw object("is a set, which preferences cannot hold")
    default:
      throw object("has the unknown marker 0x\(Self.hex(marker))")
    }
    try count(objects: 1, bytes: payload)
    reachedBytes += start + size - offset
    return Scalar(marker: marker, offset: offset, start: start, end: start + size)
  }

  /// The first byte above 0x7F of the `count` bytes at `start`, or nil; 8 bytes at a time (a
  /// generic search of the slice was a quarter of checking a 1,000,000-key file).
  private func firstNonASCII(_ start: Int, _ count: Int) -> UInt8? {
    var index = start
    let end = start + count
    while index + 8 <= end,
      bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
    {
      index += 8
    }
    // The last bytes in one load too, when 8 bytes lie in the buffer (the trailer follows every
    // object).
    if index < end, index + 8 <= bytes.count,
      bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
        & (UInt64(1) << UInt64(8 * (end - index)) &- 1) & 0x8080_8080_8080_8080 == 0
    {
      return nil
    }
    while index < end {
      if bytes[index] >= 0x80 { return bytes[index] }
      index += 1
    }
    return nil
  }

  private static func hex(_ byte: UInt8) -> String {
    String(byte, radix: 16, uppercase: true)
  }
}

extension BinaryPropertyListLayout {
  /// Whether the `units` UTF-16 big-endian code units at `start` pair every surrogate.
  func surrogatesArePaired(start: Int, units: Int) -> Bool {
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
}
