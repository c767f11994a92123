extension UnsafeRawBufferPointer {
  /// The unsigned big-endian integer of `size` bytes (1…8) at `offset`, which the caller has
  /// checked lie inside the buffer.
  ///
  /// One 8-byte load when 8 bytes from `offset` lie inside the buffer (in a binary property list,
  /// always but for the trailer's last integers: the 32-byte trailer follows every offset and
  /// reference); byte by byte otherwise.
  func bigEndianInteger(at offset: Int, size: Int) -> UInt64 {
    if offset + 8 <= count {
      let word = UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      return size == 8 ? word : word >> UInt64(64 - 8 * size)
    }
    var value: UInt64 = 0
    for index in offset..<offset + size {
      value = value << 8 | UInt64(self[index])
    }
    return value
  }
}
