/// Whether ``BinaryPropertyListScanner`` checks the entries of dictionaries whose key and value
/// are plain scalars through its fast path (``BinaryPropertyListScanner/checkedEntry(_:of:depth:)``).
///
/// `package`: only `plist-fuzz` and the tests turn it off, to compare the fast path's verdicts,
/// refusals, values and totals with the full scanner's alone on the same bytes.
package enum BinaryPropertyListFastPath {
  /// On unless a test or the fuzzer turns it off for a task.
  @TaskLocal package static var isOn = true
}

extension BinaryPropertyListScanner {
  /// What ``forEachEntry(at:of:depth:_:)`` calls with each entry: its position, its key (a string),
  /// the objects of its key and value, and its value; it returns false to stop.
  typealias EntryBody = (
    _ position: Int, _ key: Scalar, _ keyObject: Int, _ valueObject: Int, _ value: Item
  ) -> Bool

  /// A dictionary entry, checked: its key (a string), the objects of its key and value, and its
  /// value (a scalar, or a container read).
  typealias CheckedEntry = (key: Scalar, keyObject: Int, valueObject: Int, item: Item)

  /// Entry `position` of the dictionary `container` at nesting `depth`, checked: its key (a
  /// string), the objects of its key and value, and its value (a scalar, or a container read).
  ///
  /// An entry whose key and value are objects a suite holds (strings, integers, reals, Booleans,
  /// dates, data) is checked by the fast path (``scalarRun(_:of:depth:_:)``); any other entry, or
  /// one that breaks a rule, is checked by the full scanner from its start
  /// (``handedOverEntry(_:of:depth:)``), which refuses it with the same reason it always gave.
  mutating func checkedEntry(_ position: Int, of container: Container, depth: Int)
    throws(PropertyListRejection) -> CheckedEntry
  {
    if isFastPathOn {
      var taken: CheckedEntry?
      _ = scalarRun(position..<position + 1, of: container, depth: depth) {
        _, key, keyObject, valueObject, value in
        taken = (key, keyObject, valueObject, value)
        return true
      }
      if let taken { return taken }
    }
    return try handedOverEntry(position, of: container, depth: depth)
  }

  /// Calls `body` with the entries at `positions` of the dictionary `container` at `depth` in
  /// order, each checked as ``checkedEntry(_:of:depth:)`` checks it, until `body` returns false: the entries of plain
  /// scalars are taken in runs (``scalarRun(_:of:depth:_:)``, one loop with no call per entry
  /// when `body` is a closure the compiler inlines), the others one by one by the full scanner.
  ///
  /// `body` must not use the scanner (it is being changed): it is given the bytes it needs.
  ///
  /// - Returns: false when `body` stopped.
  @inline(__always)
  mutating func forEachEntry(
    at positions: Range<Int>, of container: Container, depth: Int, _ body: EntryBody
  ) throws(PropertyListRejection) -> Bool {
    var position = positions.lowerBound
    while position < positions.upperBound {
      if isFastPathOn {
        guard
          let next = scalarRun(position..<positions.upperBound, of: container, depth: depth, body)
        else { return false }
        position = next
        guard position < positions.upperBound else { break }
      }
      let (key, keyObject, valueObject, item) = try handedOverEntry(
        position, of: container, depth: depth)
      guard body(position, key, keyObject, valueObject, item) else { return false }
      position += 1
    }
    return true
  }

  /// Entry `position` of the dictionary `container` at `depth`, checked by the full scanner
  /// (``keyItem(_:of:depth:)``, ``item(_:depth:)``), counted as handed over when the fast path
  /// is on.
  private mutating func handedOverEntry(_ position: Int, of container: Container, depth: Int)
    throws(PropertyListRejection) -> CheckedEntry
  {
    if isFastPathOn {
      handOvers += 1
      if firstHandOver == nil { firstHandOver = (container.index, position) }
    }
    let key = try keyItem(position, of: container, depth: depth)
    let keyObject = Int(layout.uncheckedReference(container.start, position))
    let valueObject = try reference(
      container.start, container.count + position, of: container.index, at: container.offset)
    return (key, keyObject, valueObject, try item(valueObject, depth: depth + 1))
  }

  /// Takes the entries at `positions` of the dictionary `container` at `depth` through the fast
  /// path, in order, calling `body` with each, up to the first whose key is not a string or
  /// whose value is not a scalar a suite holds (ASCII or UTF-16 string, integer, real, Boolean,
  /// date, data), or that breaks a rule the full scanner applies (references and offsets in
  /// range, lengths inside the object area, ASCII bytes below 0x80, UTF-16 surrogates paired, a
  /// 16-byte integer's high half zero, a date finite, the depth and the expansion limits). The
  /// entries taken are counted as the full scanner counts them; the one not taken is not
  /// counted at all. It is never more lenient than the full scanner, so the full scanner, given
  /// that entry, takes it or refuses it as it always did.
  ///
  /// - Returns: The position of the entry not taken (`positions.upperBound` when all were), or
  ///   nil when `body` stopped.
  @inline(__always)
  private mutating func scalarRun(
    _ positions: Range<Int>, of container: Container, depth: Int, _ body: EntryBody
  ) -> Int? {
    guard depth < limits.maximumDepth else { return positions.lowerBound }
    var objects = expandedObjects
    var payload = expandedBytes
    var reached = reachedBytes
    var position = positions.lowerBound
    var isStopped = false
    let checks = FastPathChecks(layout: layout)
    while position < positions.upperBound, let entry = checks.entry(position, of: container) {
      let total = payload + entry.key.payload + entry.value.payload
      guard objects + 2 <= maximumObjects, total <= maximumBytes else { break }
      objects += 2
      payload = total
      reached += entry.key.scalar.range.count + entry.value.scalar.range.count
      position += 1
      guard
        body(
          position - 1, entry.key.scalar, entry.keyObject, entry.valueObject,
          .scalar(entry.value.scalar))
      else {
        isStopped = true
        break
      }
    }
    let taken = 2 * (position - positions.lowerBound)
    expandedObjects = objects
    expandedBytes = payload
    reachedBytes = reached
    checkedObjects += taken
    fastPathObjects += taken
    if taken > 0 { deepest = max(deepest, depth + 1) }
    return isStopped ? nil : position
  }
}

/// The checks of ``BinaryPropertyListScanner``'s fast path over a file's layout: a value made
/// once per run of entries, so that its calls take no copy of the scanner, which the run
/// changes (each entry copied the scanner's 208 bytes for the calls the compiler kept out of
/// line).
private struct FastPathChecks {
  typealias Scalar = BinaryPropertyListScanner.Scalar
  let layout: BinaryPropertyListLayout
  private var bytes: UnsafeRawBufferPointer { layout.bytes }
  private var tableOffset: Int { layout.tableOffset }
  private var objectCount: Int { layout.objectCount }
  private var referenceSize: Int { layout.referenceSize }

  /// Entry `position` of `container` when its key is a string and its value a scalar that pass
  /// their checks (``scalar(_:stringOnly:)``), with their objects; nil otherwise.
  @inline(__always)
  func entry(_ position: Int, of container: BinaryPropertyListScanner.Container) -> (
    key: (scalar: Scalar, payload: Int), keyObject: Int, valueObject: Int,
    value: (scalar: Scalar, payload: Int)
  )? {
    let keyObject = word(at: container.start + position * referenceSize, size: referenceSize)
    let valueObject = word(
      at: container.start + (container.count + position) * referenceSize, size: referenceSize)
    guard keyObject < UInt64(objectCount), valueObject < UInt64(objectCount),
      let key = scalar(Int(keyObject), stringOnly: true),
      let value = scalar(Int(valueObject), stringOnly: false)
    else { return nil }
    return (key, Int(keyObject), Int(valueObject), value)
  }

  /// The unsigned big-endian integer of `size` bytes (1…8) at byte `offset`, a reference, an
  /// offset-table slot or a number checked to lie in the object area: one load (the 32-byte
  /// trailer follows all of them, so 8 bytes from `offset` lie in the buffer), inlined.
  @inline(__always)
  private func word(at offset: Int, size: Int) -> UInt64 {
    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      >> UInt64(64 - 8 * size)
  }

  /// Object `index` when it is a scalar the fast path takes (a string when `stringOnly`) and
  /// passes its checks, with its string or data bytes; nil otherwise. An ASCII string (most keys
  /// and values) is checked here, inlined; the other kinds by ``otherScalar(_:at:stringOnly:)``.
  @inline(__always)
  private func scalar(_ index: Int, stringOnly: Bool) -> (scalar: Scalar, payload: Int)? {
    let slot = tableOffset + index * layout.offsetSize
    let offset = Int(truncatingIfNeeded: word(at: slot, size: layout.offsetSize))
    guard offset >= 8, offset < tableOffset else { return nil }
    let marker = bytes[offset]
    guard marker >> 4 == 0x5 else {
      return otherScalar(marker, at: offset, stringOnly: stringOnly)
    }
    guard let (start, count) = fastLength(offset, low: Int(marker & 0x0F)), fits(start, count),
      isASCII(start, count)
    else { return nil }
    return (Scalar(marker: marker, offset: offset, start: start, end: start + count), count)
  }

  /// The object at byte `offset` (inside the object area), whose marker is `marker` and not an
  /// ASCII string's, as ``scalar(_:stringOnly:)`` takes it.
  @inline(never)
  private func otherScalar(_ marker: UInt8, at offset: Int, stringOnly: Bool) -> (
    scalar: Scalar, payload: Int
  )? {
    let low = Int(marker & 0x0F)
    let kind = marker >> 4
    guard !stringOnly || kind == 0x6 else { return nil }
    var start = offset + 1
    let size: Int
    var payload = 0
    switch kind {
    case 0x0:
      guard low == 0x8 || low == 0x9 else { return nil }
      size = 0
    case 0x1:
      guard low <= 4 else { return nil }
      size = 1 << low
      guard fits(start, size), size < 16 || word(at: start, size: 8) == 0 else { return nil }
    case 0x2:
      guard low == 2 || low == 3 else { return nil }
      size = 1 << low
      guard fits(start, size) else { return nil }
    case 0x3:
      guard low == 3, fits(start, 8), Double(bitPattern: word(at: start, size: 8)).isFinite
      else { return nil }
      size = 8
    case 0x4:
      guard let (contents, count) = fastLength(offset, low: low), fits(contents, count) else {
        return nil
      }
      start = contents
      size = count
      payload = size
    case 0x6:
      guard let (contents, count) = fastLength(offset, low: low), count <= tableOffset,
        fits(contents, 2 * count), layout.surrogatesArePaired(start: contents, units: count)
      else { return nil }
      start = contents
      size = 2 * count
      payload = size
    default:
      return nil
    }
    return (Scalar(marker: marker, offset: offset, start: start, end: start + size), payload)
  }

  /// Whether `count` bytes from `start` lie before the offset table.
  @inline(__always)
  private func fits(_ start: Int, _ count: Int) -> Bool {
    count >= 0 && start <= tableOffset && count <= tableOffset - start
  }

  /// Where the contents of the object at `offset` (whose marker's low bits are `low`) start and
  /// its count, as ``BinaryPropertyListLayout/lengthAndStart(_:at:)`` reads them; nil where that
  /// throws.
  @inline(__always)
  private func fastLength(_ offset: Int, low: Int) -> (start: Int, count: Int)? {
    guard low == 0xF else { return (offset + 1, low) }
    guard fits(offset + 1, 1) else { return nil }
    let countMarker = bytes[offset + 1]
    guard countMarker >> 4 == 0x1, countMarker & 0x0F <= 3 else { return nil }
    let size = 1 << Int(countMarker & 0x0F)
    guard fits(offset + 2, size) else { return nil }
    let count = word(at: offset + 2, size: size)
    guard count <= UInt64(tableOffset) else { return nil }
    return (offset + 2 + size, Int(count))
  }

  /// Whether the `count` bytes at `start` (inside the object area) are all below 0x80: 8 bytes
  /// at a time, the last ones in one masked load (at least the offset table and the 32-byte
  /// trailer follow the object area, so 8 bytes from any of its bytes lie in the buffer).
  @inline(__always)
  private func isASCII(_ start: Int, _ count: Int) -> Bool {
    var index = start
    let end = start + count
    var high: UInt64 = 0
    while index + 8 <= end {
      high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    if index < end {
      high |=
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        & (UInt64(1) << UInt64(8 * (end - index)) &- 1)
    }
    return high & 0x8080_8080_8080_8080 == 0
  }
}
