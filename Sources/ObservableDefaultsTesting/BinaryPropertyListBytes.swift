package import Foundation

/// Builds binary property lists (`bplist00`) object by object, for files no writer would make.
///
/// Objects are given as their raw bytes (marker and contents; references are 1 byte); the
/// offset table and trailer are computed.
package enum BinaryPropertyListBytes {
  /// The file holding `objects`, whose object `top` is the root; `offsets` replaces the offsets
  /// of the objects it names (by index) in the offset table, whose offsets are then 8 bytes.
  package static func file(
    _ objects: [[UInt8]], top: Int = 0, offsets replaced: [Int: UInt64] = [:]
  ) -> Data {
    var data = Data("bplist00".utf8)
    var offsets: [UInt64] = []
    for object in objects {
      offsets.append(UInt64(data.count))
      data.append(contentsOf: object)
    }
    let table = data.count
    let offsetSize =
      replaced.isEmpty ? max(1, (Int.bitWidth - table.leadingZeroBitCount + 7) / 8) : 8
    for (index, offset) in replaced { offsets[index] = offset }
    for offset in offsets {
      data.append(contentsOf: bigEndian(offset, size: offsetSize))
    }
    data.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1])
    data.append(contentsOf: bigEndian(UInt64(objects.count), size: 8))
    data.append(contentsOf: bigEndian(UInt64(top), size: 8))
    data.append(contentsOf: bigEndian(UInt64(table), size: 8))
    return data
  }

  /// `{"k": <object 2>}` followed by `objects` from object 2 on.
  package static func dictionary(holding objects: [[UInt8]]) -> Data {
    file([[0xD1, 1, 2], [0x51, UInt8(ascii: "k")]] + objects)
  }

  /// `{"k": a0}` where each `a_i` is `[a_(i+1), a_(i+1)]` and `a_n` is `"x"`: 2ⁿ values once
  /// expanded, in a file of `50 + 4n` bytes.
  package static func doublingChain(_ n: Int) -> Data {
    let arrays = (0..<n).map { index in [0xA2, UInt8(3 + index), UInt8(3 + index)] }
    return dictionary(holding: arrays + [[0x51, UInt8(ascii: "x")]])
  }

  package static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }
}
