extension UnsafeRawBufferPointer {
  /// The unsigned big-endian integer of `size` bytes (1…8) at `offset`, which the caller has
  /// checked lie inside the buffer.
  func bigEndianInteger(at offset: Int, size: Int) -> UInt64 {
    if size == 8 {
      return UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    var value: UInt64 = 0
    for index in offset..<offset + size {
      value = value << 8 | UInt64(self[index])
    }
    return value
  }
}
