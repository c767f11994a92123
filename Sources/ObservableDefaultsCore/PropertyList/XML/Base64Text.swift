import Foundation

/// The Base64 of a `<data>` element (RFC 4648 §4, the standard alphabet with `=` padding), in
/// one pass each way between a value's bytes and their final place: the writer encodes straight
/// into the file's text, line by line; the reader decodes the text, white space and all, into
/// the value's own block, checking it on the way.
///
/// Foundation's `base64EncodedData()` and `Data(base64Encoded:options:)` each made a block of
/// their own that was then copied: for a 50 MB value that was a 67 MB text copied once more on
/// each side (and the reader's copy of the text before decoding it, a third 67 MB block).
enum Base64Text {
  /// Bytes of the lines of `count` bytes in Base64: lines of `lineLength` characters (a multiple
  /// of 4; the last one shorter), each after `indentation` bytes and ending with a line break.
  static func byteCount(encoding count: Int, lineLength: Int, indentation: Int) -> Int {
    let characters = (count + 2) / 3 * 4
    let lines = (characters + lineLength - 1) / lineLength
    return characters + lines * (indentation + 1)
  }

  /// Writes `data` in Base64 at `output` as lines of `lineLength` characters (a multiple of 4;
  /// the last one shorter, its last group padded with `=`), each after `indentation` and ending
  /// with a line break: ``byteCount(encoding:lineLength:indentation:)`` bytes.
  static func encode(
    _ data: UnsafeRawBufferPointer, lineLength: Int, indentation: UnsafeRawBufferPointer,
    into output: UnsafeMutableRawPointer
  ) {
    let lineBytes = lineLength / 4 * 3
    guard let source = data.baseAddress else { return }
    // An indentation of 8 bytes or less is one store of 8 on a line of 8 characters or more
    // (the bytes past it are that line's, written after it); it was a call to copy 1 byte.
    let indentationWord = indentation.count <= 8 ? word(of: indentation) : nil
    characterQuads.withUnsafeBufferPointer { quads in
      var out = output
      var start = 0
      // Whole lines of 6 bytes or more, while 2 bytes past the line can be read (a step loads 8
      // bytes for 6, the last 3 are a load of 4): no bound to take within the line. The last
      // lines, and any line of another layout, are written below.
      if let indentationWord, lineBytes >= 6 {
        while start &+ lineBytes &+ 2 <= data.count {
          out.storeBytes(of: indentationWord, as: UInt64.self)
          out += indentation.count
          let end = start &+ lineBytes
          let index = encodeSteps(source, from: start, through: end &- 6, quads, into: &out)
          // The line's last 3 bytes when its length is not a multiple of 6: one load of 4.
          if index < end {
            let word = UInt32(
              bigEndian: source.loadUnaligned(fromByteOffset: index, as: UInt32.self))
            out.storeBytes(of: characters(ofTwelveBitPairs: Int(word >> 8), quads), as: UInt32.self)
            out += 4
          }
          out.storeBytes(of: UInt8(ascii: "\n"), as: UInt8.self)
          out += 1
          start = end
        }
      }
      while start < data.count {
        let end = min(start + lineBytes, data.count)
        if let indentationWord, end - start >= 6 {
          out.storeBytes(of: indentationWord, as: UInt64.self)
        } else if let base = indentation.baseAddress {
          out.copyMemory(from: base, byteCount: indentation.count)
        }
        out += indentation.count
        var index = encodeSteps(
          source, from: start, through: min(end - 6, data.count - 8), quads, into: &out)
        // Three bytes are two 12-bit halves, each two characters from one table.
        while index + 3 <= end {
          let group = Int(data[index]) << 16 | Int(data[index + 1]) << 8 | Int(data[index + 2])
          out.storeBytes(of: characters(ofTwelveBitPairs: group, quads), as: UInt32.self)
          out += 4
          index &+= 3
        }
        if index < end {
          let second = index + 1 < end ? Int(data[index + 1]) : 0
          let group = Int(data[index]) << 16 | second << 8
          out.storeBytes(of: characters(ofTwelveBitPairs: group, quads), as: UInt32.self)
          (out + 3).storeBytes(of: UInt8(ascii: "="), as: UInt8.self)
          if index + 1 == end { (out + 2).storeBytes(of: UInt8(ascii: "="), as: UInt8.self) }
          out += 4
        }
        out.storeBytes(of: UInt8(ascii: "\n"), as: UInt8.self)
        out += 1
        start = end
      }
    }
  }

  /// Encodes 6 bytes at a time from `index` while it is at most `last`, at `output` (moved past
  /// the characters written); where it stopped. Six bytes are four 12-bit quarters, each two
  /// characters from one table: one load of 8 bytes (`last` leaves 8 to read) and one store of
  /// 8 characters.
  @inline(__always)
  private static func encodeSteps(
    _ source: UnsafeRawPointer, from index: Int, through last: Int,
    _ quads: UnsafeBufferPointer<UInt32>, into output: inout UnsafeMutableRawPointer
  ) -> Int {
    var index = index
    var out = output
    while index <= last {
      let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      out.storeBytes(
        of: characters(ofSixBytesIn: UInt64(bigEndian: word), quads), as: UInt64.self)
      out += 8
      index &+= 6
    }
    output = out
    return index
  }

  /// The bytes of `bytes` (8 at most) in a word, in their order in memory.
  private static func word(of bytes: UnsafeRawBufferPointer) -> UInt64 {
    var word: UInt64 = 0
    withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: bytes) }
    return word
  }

  /// The eight characters, in the order they are written, of the first six bytes of `word`
  /// (read big-endian: its highest byte first).
  @inline(__always)
  private static func characters(
    ofSixBytesIn word: UInt64, _ quads: UnsafeBufferPointer<UInt32>
  ) -> UInt64 {
    let first = quads[Int(word >> 52)] | quads[4096 + Int(word >> 40 & 0xFFF)]
    let second = quads[Int(word >> 28 & 0xFFF)] | quads[4096 + Int(word >> 16 & 0xFFF)]
    return (UInt64(first) | UInt64(second) << 32).littleEndian
  }

  /// The four characters, in the order they are written, of the 24 bits of `group`.
  @inline(__always)
  private static func characters(
    ofTwelveBitPairs group: Int, _ quads: UnsafeBufferPointer<UInt32>
  ) -> UInt32 {
    (quads[group >> 12] | quads[4096 + group & 0xFFF]).littleEndian
  }

  /// The bytes of Base64 `text` with white space anywhere, in a block of their own
  /// (``SystemMemory/allocate(byteCount:)``), decoded and checked in one pass: nil unless the
  /// text is Base64 as ``XMLScalarText/isBase64(_:)`` takes it (after the white space, groups
  /// of four characters of the alphabet, the last one ending in at most two `=`).
  ///
  /// The bits of a last group that its bytes do not use are ignored, as Foundation's decoder
  /// ignores them.
  static func decode(_ text: UnsafeRawBufferPointer) -> Data? {
    // Each group of four characters is three bytes at most; a last partial group, two.
    let bound = max(text.count / 4 * 3 + 2, 1)
    guard let block = SystemMemory.allocate(byteCount: bound) else {
      // As `Data(base64Encoded:)` did: a value that finds no memory stops the program there.
      return decode(text, bound: bound, block: nil)
    }
    return decode(text, bound: bound, block: block)
  }

  /// ``decode(_:)`` into `block` (of `bound` bytes, from ``SystemMemory/allocate(byteCount:)``),
  /// or into a `Data` of `bound` bytes when there is none.
  private static func decode(
    _ text: UnsafeRawBufferPointer, bound: Int, block: UnsafeMutableRawPointer?
  )
    -> Data?
  {
    guard let block else {
      var data = Data(count: bound)
      let count = data.withUnsafeMutableBytes { decode(text, into: $0.baseAddress!) }
      guard let count else { return nil }
      data.count = count
      return data
    }
    guard let count = decode(text, into: block) else {
      SystemMemory.deallocate(block, byteCount: bound)
      return nil
    }
    let byteCount = max(count, 1)
    guard let kept = SystemMemory.resize(block, from: bound, to: byteCount) else {
      return SystemMemory.data(taking: block, count: count, byteCount: bound)
    }
    return SystemMemory.data(taking: kept, count: count, byteCount: byteCount)
  }

  /// Decodes `text` at `output`; the number of bytes, or nil when it is not Base64.
  private static func decode(_ text: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer)
    -> Int?
  {
    var abandonedLoads = 0
    return decode(text, into: output, abandonedLoads: &abandonedLoads)
  }

  /// ``decode(_:into:)``, adding to `abandonedLoads` the loads of 8 or 4 characters the whole
  /// groups' steps made and did not decode whole (a byte not a letter among them: each line's
  /// end, its indentation, the padding), for the tests that count the decoder's work.
  static func decode(
    _ text: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer,
    abandonedLoads: inout Int
  ) -> Int? {
    guard let base = text.baseAddress else { return 0 }
    // The table of letter pairs (256 KiB) is made only for a text this long. The tables are
    // taken once here: a static's access in the loop checks that it was made, each time.
    let pairTable = text.count >= 1 << 12 ? pairBits : []
    return Self.tables(pairTable) { sextets, groupTable, pairTable -> Int? in
      let count = text.count
      var input = 0
      var out = output
      var pending: UInt32 = 0
      var letters = 0
      while input < count {
        // Whole groups, while no white space or `=` comes: the bulk of every line.
        if letters == 0 {
          input = decodeGroups(
            base, from: input, count: count, groupTable, pairTable, into: &out,
            abandonedLoads: &abandonedLoads)
          guard input < count else { break }
        }
        // One character at a time: white space, a group split by it, the padding.
        let sextet = sextets[Int(text[input])]
        input += 1
        if sextet == Sextet.space {
          // A line break and the next line's indentation, before its letters are decoded.
          while input < count, sextets[Int(text[input])] == Sextet.space { input += 1 }
          continue
        }
        guard sextet & Sextet.notLetter == 0 else {
          guard sextet == Sextet.padding else { return nil }
          input -= 1
          break
        }
        pending = pending << 6 | UInt32(sextet)
        letters += 1
        if letters == 4 {
          out.storeBytes(of: UInt8(truncatingIfNeeded: pending >> 16), as: UInt8.self)
          (out + 1).storeBytes(of: UInt8(truncatingIfNeeded: pending >> 8), as: UInt8.self)
          (out + 2).storeBytes(of: UInt8(truncatingIfNeeded: pending), as: UInt8.self)
          out += 3
          pending = 0
          letters = 0
        }
      }
      // After the letters: only `=` (two at most) and white space; the last group complete.
      var padding = 0
      while input < count {
        let sextet = sextets[Int(text[input])]
        input += 1
        if sextet == Sextet.space { continue }
        guard sextet == Sextet.padding, padding < 2 else { return nil }
        padding += 1
      }
      switch (letters, padding) {
      case (0, 0): break
      case (2, 2):
        out.storeBytes(of: UInt8(truncatingIfNeeded: pending >> 4), as: UInt8.self)
        out += 1
      case (3, 1):
        out.storeBytes(of: UInt8(truncatingIfNeeded: pending >> 10), as: UInt8.self)
        (out + 1).storeBytes(of: UInt8(truncatingIfNeeded: pending >> 2), as: UInt8.self)
        out += 2
      default: return nil
      }
      return output.distance(to: out)
    }
  }

  /// Decodes the whole groups of four letters of `text` (of `count` bytes) from `input` on, up
  /// to the first byte that is not a letter, at `output` (moved past the bytes written); where
  /// it stopped.
  ///
  /// With `pairTable` (``pairBits``; empty for a short text), two groups at a time while 8 bytes
  /// can be read: one load of 8 characters, four look-ups of two characters each (a group is
  /// its first pair's entry `or` its second's shifted, a byte above the 24 bits set when either
  /// is not two letters) and one store of 8 bytes, of which the 6 decoded are kept (the decoded
  /// bytes' bound leaves room for the other 2: a text of `count` bytes decodes to at most
  /// `count / 4 * 3` bytes, and 8 characters are read only while 8 remain). When the second
  /// group is not letters the first is kept, and the step ends there: it is the end of a line.
  /// Without the pair table, or when fewer than 8 bytes remain, one group at a time: each
  /// character's six bits come from a table of its own place in the group (`groupTable`,
  /// ``groupBits``), already shifted there, so that a group is four look-ups and an `or`. Any
  /// byte that is not a letter sets a bit above the bits of its group, which is then left to the
  /// next step.
  @inline(__always)
  private static func decodeGroups(
    _ text: UnsafeRawPointer, from input: Int, count: Int,
    _ groupTable: UnsafeBufferPointer<UInt32>, _ pairTable: UnsafeBufferPointer<UInt32>,
    into output: inout UnsafeMutableRawPointer, abandonedLoads: inout Int
  ) -> Int {
    var input = input
    var out = output
    if !pairTable.isEmpty {
      while input &+ 8 <= count {
        let word = UInt64(
          littleEndian: text.loadUnaligned(fromByteOffset: input, as: UInt64.self))
        let first =
          pairTable[Int(word & 0xFFFF)] | pairTable[Int(word >> 16 & 0xFFFF)] >> 12
        let second = pairTable[Int(word >> 32 & 0xFFFF)] | pairTable[Int(word >> 48)] >> 12
        guard (first | second) & 0xFF == 0 else {
          abandonedLoads &+= 1
          // 8 characters remain, so the bound has room for the fourth byte stored.
          if first & 0xFF == 0 {
            out.storeBytes(of: first.bigEndian, as: UInt32.self)
            out += 3
            input &+= 4
          }
          output = out
          return input
        }
        out.storeBytes(of: (UInt64(first) << 32 | UInt64(second) << 8).bigEndian, as: UInt64.self)
        out += 6
        input &+= 8
      }
    }
    while input &+ 4 <= count {
      let group = text.loadUnaligned(fromByteOffset: input, as: UInt32.self).littleEndian
      let bits =
        groupTable[Int(group & 0xFF)] | groupTable[256 + Int(group >> 8 & 0xFF)]
        | groupTable[512 + Int(group >> 16 & 0xFF)] | groupTable[768 + Int(group >> 24)]
      guard bits < 1 << 24 else {
        abandonedLoads &+= 1
        break
      }
      out.storeBytes(of: UInt16(truncatingIfNeeded: bits >> 8).bigEndian, as: UInt16.self)
      (out + 2).storeBytes(of: UInt8(truncatingIfNeeded: bits), as: UInt8.self)
      out += 3
      input &+= 4
    }
    output = out
    return input
  }

  /// `body` given the decoder's tables: ``sextets``, ``groupBits`` and `pairTable` (``pairBits``
  /// or empty).
  @inline(__always)
  private static func tables<Result>(
    _ pairTable: [UInt32],
    _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>)
      -> Result
  ) -> Result {
    sextets.withUnsafeBufferPointer { sextets in
      groupBits.withUnsafeBufferPointer { groups in
        pairTable.withUnsafeBufferPointer { pairs in body(sextets, groups, pairs) }
      }
    }
  }

  /// For each two bytes read as a little-endian `UInt16` (the first byte lowest), their twelve
  /// bits at the top of 32 when both are letters of the alphabet, else every bit set: a group
  /// of four letters is its first pair's entry `or` its second's shifted right by 12 (its 24
  /// bits at the top), the low byte set unless both pairs are letters.
  private static let pairBits: [UInt32] = (0..<65_536).map { pair -> UInt32 in
    let (first, second) = (sextets[pair & 0xFF], sextets[pair >> 8])
    guard (first | second) & Sextet.notLetter == 0 else { return .max }
    return (UInt32(first) << 6 | UInt32(second)) << 20
  }

  /// For each place in a group of four characters (256 entries each) and each byte, its six
  /// bits shifted to their place in the group's 24, or a bit above them when the byte is not a
  /// letter of the alphabet.
  private static let groupBits: [UInt32] = (0..<4).flatMap { place in
    sextets.map { sextet -> UInt32 in
      sextet & Sextet.notLetter == 0 ? UInt32(sextet) << (18 - 6 * place) : 1 << 24
    }
  }

  /// The alphabet (RFC 4648 §4).
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// For each 12 bits, their two characters in the order they are written, in the low half of
  /// a word (the first character lowest); then the same in the high half: the four characters
  /// of 24 bits are the first half's entry of their high 12 `or` the second's of their low 12.
  private static let characterQuads: [UInt32] = [0, 16].flatMap { shift in
    (0..<4096).map { (UInt32(alphabet[$0 >> 6]) | UInt32(alphabet[$0 & 63]) << 8) << shift }
  }

  /// The classes of a byte that is not a letter of the alphabet (``sextets``).
  private enum Sextet {
    /// The bits set for anything but a letter.
    static let notLetter: UInt8 = 0xC0
    /// White space (XML's: space, tab, carriage return, line feed).
    static let space: UInt8 = 0x40
    /// `=`.
    static let padding: UInt8 = 0x80
    /// Any other byte.
    static let other: UInt8 = 0xC0
  }

  /// For each byte, its six bits when it is a letter of the alphabet, else its ``Sextet`` class.
  private static let sextets: [UInt8] = (0...255).map { byte -> UInt8 in
    if let index = alphabet.firstIndex(of: UInt8(byte)) { return UInt8(index) }
    switch UInt8(byte) {
    case 0x20, 0x09, 0x0D, 0x0A: return Sextet.space
    case UInt8(ascii: "="): return Sextet.padding
    default: return Sextet.other
    }
  }
}
