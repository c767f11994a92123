/// The objects of a binary property list that its top dictionary reaches, and their bytes:
/// what bounds the bytes a splice (``BinaryPropertyListSplice``) leaves that no reference
/// reaches. The top dictionary's keys and scalar values are counted as the checking scan meets
/// them (their places are known then); only the containers among its values are walked after.
///
/// The count is a lower bound of what the new top dictionary reaches (an object also referred
/// to from elsewhere may be taken off with a replaced value), so the bytes it leaves unreferenced
/// are never under-counted: a file is written whole at worst a little early, never late.
struct BinaryPropertyListReach {
  /// One bit per object: counted already.
  private var visited: [UInt64]
  /// The bytes of the objects counted (markers and lengths included).
  private(set) var bytes = 0
  /// The objects counted, the top dictionary included.
  private(set) var objects = 1
  /// The containers met among the top dictionary's values, walked by ``walk(in:skipping:)``.
  private var containers: [Int] = []
  /// Where the bytes a splice copies end: every object reached must lie before it.
  let end: Int
  /// Whether every object counted lies before ``end``.
  private(set) var isInside = true

  /// Nothing counted yet but the top dictionary (object `top` of `objectCount`).
  init(objectCount: Int, top: Int, end: Int) {
    visited = [UInt64](repeating: 0, count: (objectCount + 63) / 64)
    self.end = end
    _ = mark(top)
  }

  /// Marks object `index` counted; false when it was counted before.
  private mutating func mark(_ index: Int) -> Bool {
    let (word, bit) = (index / 64, UInt64(1) << UInt64(index % 64))
    guard visited[word] & bit == 0 else { return false }
    visited[word] |= bit
    return true
  }

  /// Counts the scalar object `index`, whose bytes are `range`.
  mutating func add(_ index: Int, bytes range: Range<Int>) {
    guard mark(index) else { return }
    objects += 1
    bytes += range.count
    if range.upperBound > end { isInside = false }
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

  /// Walks the containers met, but those in `skipped` (values a change replaces), and counts
  /// every object they reach.
  ///
  /// - Returns: false when an object reached lies (partly) at or after ``end``, or cannot be
  ///   read.
  mutating func walk(in file: BinaryPropertyListLayout, skipping skipped: Set<Int>) -> Bool {
    var stack = containers.filter { !skipped.contains($0) }
    let bytes = file.bytes
    while let index = stack.popLast() {
      guard index < file.objectCount else { return false }
      guard mark(index) else { continue }
      let offset = file.uncheckedOffset(index)
      guard offset >= 8, offset < end else { return false }
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
      guard objectEnd <= end else { return false }
      objects += 1
      self.bytes += objectEnd - offset
    }
    return isInside
  }
}
