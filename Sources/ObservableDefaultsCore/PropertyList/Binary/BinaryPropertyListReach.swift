/// The objects of a binary property list that its top dictionary reaches, and their bytes:
/// what bounds the bytes a splice (``BinaryPropertyListSplice``) leaves that no reference
/// reaches. The top dictionary's keys and scalar values are counted as the checking scan meets
/// them (their places are known then); only the containers among its values are walked after.
///
/// The count is a lower bound of what the new top dictionary reaches (a scalar also referred to
/// from elsewhere may be taken off with a replaced value), so the bytes it leaves unreferenced
/// are never under-counted: a file is written whole at worst a little early, never late. The
/// objects marked are a superset of the file's objects the new top dictionary reaches (a
/// container replaced in one entry and kept in another is walked), so that none of those lies
/// in the bytes a splice leaves out (``hole``).
struct BinaryPropertyListReach {
  /// One bit per object: counted already.
  private var visited: [UInt64]
  /// The bytes of the objects counted (markers and lengths included).
  private(set) var bytes = 0
  /// The objects counted, the top dictionary included.
  private(set) var objects = 1
  /// The containers met among the top dictionary's values, walked by ``walk(in:skipping:)``.
  private var containers: [Int] = []
  /// Where the object area ends (the offset table's offset).
  let end: Int
  /// The bytes of the file's top dictionary, which a splice leaves out (it writes a new one):
  /// every object reached must lie before or after them, and before ``end``.
  let hole: Range<Int>
  /// Whether every object counted lies outside ``hole`` and before ``end``.
  private(set) var isInside = true

  /// Nothing counted yet but the top dictionary (object `top` of `objectCount`, whose bytes are
  /// `hole`) in an object area that ends at `end`.
  init(objectCount: Int, top: Int, hole: Range<Int>, end: Int) {
    visited = [UInt64](repeating: 0, count: (objectCount + 63) / 64)
    self.end = end
    self.hole = hole
    _ = mark(top)
  }

  /// The bytes a splice copies: the object area (the header included) but ``hole``.
  var copiedBytes: Int { end - hole.count }

  /// Whether the object bytes `range` lie where a splice copies them.
  @inline(__always)
  private func isCopied(_ range: Range<Int>) -> Bool {
    range.upperBound <= hole.lowerBound
      || (range.lowerBound >= hole.upperBound && range.upperBound <= end)
  }

  /// Marks object `index` counted; false when it was counted before.
  @inline(__always)
  private mutating func mark(_ index: Int) -> Bool {
    let (word, bit) = (index / 64, UInt64(1) << UInt64(index % 64))
    guard visited[word] & bit == 0 else { return false }
    visited[word] |= bit
    return true
  }

  /// Counts the scalar object `index`, whose bytes are `range`.
  @inline(__always)
  mutating func add(_ index: Int, bytes range: Range<Int>) {
    guard mark(index) else { return }
    objects += 1
    bytes += range.count
    if !isCopied(range) { isInside = false }
  }

  /// Remembers the container `index` met as a value, to walk later.
  mutating func addContainer(_ index: Int) {
    containers.append(index)
  }

  /// Takes back a scalar object (bytes `range`) that a change no longer refers to.
  mutating func remove(bytes range: Range<Int>) {
    objects -= 1
    bytes -= range.count
  }

  /// Walks the containers met, but `skipped` (values a change replaces: each container as many
  /// times as it is replaced), and counts every object they reach.
  ///
  /// - Returns: false when an object reached lies (partly) in ``hole`` or at or after ``end``,
  ///   or cannot be read.
  mutating func walk(in file: BinaryPropertyListLayout, skipping skipped: [Int: Int]) -> Bool {
    var skipped = skipped
    var stack: [Int] = []
    for container in containers {
      if let times = skipped[container], times > 0 {
        skipped[container] = times - 1
      } else {
        stack.append(container)
      }
    }
    let bytes = file.bytes
    while let index = stack.popLast() {
      guard index < file.objectCount else { return false }
      guard mark(index) else { continue }
      let offset = file.uncheckedOffset(index)
      guard offset >= 8, offset < end, isCopied(offset..<offset + 1) else { return false }
      let marker = bytes[offset] >> 4
      let low = Int(bytes[offset] & 0x0F)
      let objectEnd: Int
      switch marker {
      case 0x0: objectEnd = offset + 1
      case 0x1, 0x2: objectEnd = offset + 1 + (1 << low)
      case 0x3: objectEnd = offset + 9
      case 0x4, 0x5, 0x6, 0xA, 0xD:
        guard let (start, count) = try? file.lengthAndStart(index, at: offset) else {
          return false
        }
        switch marker {
        case 0x4, 0x5: objectEnd = start + count
        case 0x6: objectEnd = start + 2 * count
        default:
          let referenceCount = marker == 0xD ? 2 * count : count
          objectEnd = start + referenceCount * file.referenceSize
          guard objectEnd <= end else { return false }
          for position in 0..<referenceCount {
            stack.append(Int(clamping: file.uncheckedReference(start, position)))
          }
        }
      default: return false
      }
      guard isCopied(offset..<objectEnd) else { return false }
      objects += 1
      self.bytes += objectEnd - offset
    }
    return isInside
  }
}
