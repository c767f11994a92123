import Foundation

/// Reads a binary property list (`bplist00`, Apple's CFBinaryPList format, see
/// ``BinaryPropertyListWriter``) in one pass that checks each object as it reads it, so that what
/// Foundation would crash on, expand without bound or silently misread is refused with a reason
/// (``PropertyListRejection``) instead of read.
///
/// Refused: a trailer, offset or object reference outside the file; an object that contains
/// itself; sets, ordered sets, UIDs (keyed-archiver references), null and fill objects, unknown
/// markers — none of which a preferences file can hold (Apple's `PropertyListSerialization`
/// documents the types: string, number, Boolean, date, data, array, dictionary); dictionary keys
/// that are not strings; 16-byte integers outside 0…2⁶⁴−1 (Foundation keeps only their low 8
/// bytes); non-finite dates; ASCII strings with bytes above 0x7F and UTF-16 strings with unpaired
/// surrogates (Foundation would replace characters); and any file beyond ``PropertyListLimits``
/// (nesting depth, values counted each time they are referred to, string and data bytes counted
/// the same way). Objects are read in the order a reader meets them (a dictionary's key, then its
/// value); the first offending one is named.
///
/// Each container is read once and kept with what its subtree expands to and its height, so that
/// a second reference to it is checked against the limits before it is read again, and its value
/// is shared from then on: a chain of arrays that each refer to the next one twice is refused in
/// linear time, never expanded. Scalars are checked and decoded at each reference, as Foundation
/// creates them.
///
/// Values are what Foundation's `PropertyListSerialization` reads from the same bytes after
/// normalization: integers of 1, 2 and 4 bytes are unsigned, of 8 bytes signed, of 16 bytes the
/// unsigned low 8 bytes (`Int` when they fit, else `UInt64`); 4-byte reals widen to `Double`;
/// dates are seconds since 2001-01-01 00:00:00 UTC; when a dictionary holds a key twice, the
/// first value is kept, as CoreFoundation's reader does.
///
/// The entry points scan a file's bytes once each: ``value(of:limits:)`` (cloud records),
/// ``root(of:)`` and ``value(releasingPagesOf:)`` (a file's first read), ``value(of:comparingTo:)``
/// and ``changes(of:since:previous:)`` (re-reads after a change, which also give the entries for
/// the next one, see ``PropertyListEntries``).
struct BinaryPropertyListScanner {
  /// Where the file's parts lie.
  let layout: BinaryPropertyListLayout
  let limits: PropertyListLimits
  var bytes: UnsafeRawBufferPointer { layout.bytes }
  var referenceSize: Int { layout.referenceSize }
  var objectCount: Int { layout.objectCount }
  var topObject: Int { layout.topObject }
  var tableOffset: Int { layout.tableOffset }
  /// The file's expansion limits (see ``PropertyListLimits/maximumObjects(inBinaryFileOf:)``).
  let maximumObjects: Int
  let maximumBytes: Int

  /// Values met so far, each counted once per reference to it (what a reader creates).
  var expandedObjects = 0
  /// String and data bytes met so far, counted the same way.
  var expandedBytes = 0
  /// What the objects met so far expand to (``expandedObjects`` and their bytes).
  var expansion: PropertyListExpansion {
    PropertyListExpansion(values: expandedObjects, bytes: expandedBytes)
  }
  /// The deepest nesting met so far (for the heights of containers).
  var deepest = 0
  /// Objects checked so far, counted once per check (a container read again from its kept value
  /// is not checked again): what the tests count to show that a file is walked once.
  var checkedObjects = 0
  /// Whether dictionary entries of plain scalars go through the fast path
  /// (``checkedEntry(_:of:depth:)``; ``BinaryPropertyListFastPath/isOn`` when the scan began).
  let isFastPathOn = BinaryPropertyListFastPath.isOn
  /// The bytes of the objects checked (markers, lengths and references included), counted at
  /// each check as ``checkedObjects`` are: see ``requireObjectAreaMostlyReached()``.
  var reachedBytes = 0
  /// Objects the fast path checked (of ``checkedObjects``).
  var fastPathObjects = 0
  /// Dictionary entries the fast path handed over to the full scanner.
  var handOvers = 0
  /// The first of them: the dictionary (its object) and the entry's position.
  var firstHandOver: (dictionary: Int, position: Int)?
  /// The containers met: being read (a reference back to one is a cycle), or read.
  private var containers: [Int: ContainerState] = [:]
  /// The top dictionary while it is read (``topDictionary()``; a reference back to it is a
  /// cycle), kept apart from ``containers``: a file of plain scalars under its top dictionary
  /// then fills no table of containers, whose type the runtime makes on the first insertion
  /// with a walk of every protocol conformance of the program (a twentieth of a one-key
  /// `settings-editor read`, callgrind).
  private var topInProgress: Int?
  /// The values of containers referred to more than once, read again once and shared after.
  private var sharedValues: [Int: Any] = [:]

  /// What a container's subtree expands to.
  private struct Subtree {
    var objects: Int
    var bytes: Int
    var height: Int
  }

  private enum ContainerState {
    case inProgress
    case done(Subtree)
  }

  /// Reads and checks the header and trailer.
  ///
  /// - Throws: ``PropertyListRejection`` when they are inconsistent with the file's length.
  init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) throws(PropertyListRejection) {
    layout = try BinaryPropertyListLayout(bytes: bytes)
    self.limits = limits
    maximumObjects = limits.maximumObjects(inBinaryFileOf: layout.objectCount)
    maximumBytes = limits.maximumBytes(inBinaryFileOf: bytes.count)
  }

  /// `body`'s result for a scanner of `data`.
  ///
  /// - Throws: ``PropertyListRejection`` when the bytes are refused.
  static func scanning<Result>(
    _ data: Data, limits: PropertyListLimits = .preferences,
    _ body: (inout BinaryPropertyListScanner) throws(PropertyListRejection) -> Result
  ) throws(PropertyListRejection) -> Result {
    do {
      return try data.withUnsafeBytes { bytes in
        var scanner = try BinaryPropertyListScanner(bytes: bytes, limits: limits)
        return try body(&scanner)
      }
    } catch let rejection as PropertyListRejection {
      throw rejection
    } catch {
      throw PropertyListRejection(reason: "\(error)")
    }
  }

  /// The value of object `index` at nesting `depth` (the top object is at 1), checked.
  ///
  /// The item is read before `value(of:)` is called: written as one expression, the call took a
  /// copy of the scanner before its argument changed it, so each container met under another
  /// copied the table of containers (``containers``) whole — a file of 250,000 arrays that
  /// Foundation wrote (it shares no equal values) read for minutes.
  mutating func value(_ index: Int, depth: Int) throws(PropertyListRejection) -> Any {
    let item = try item(index, depth: depth)
    return value(of: item)
  }

  /// Object `index` at nesting `depth`: a scalar checked (not decoded: see
  /// ``Scalar/value(in:)``), or a container checked and read.
  mutating func item(_ index: Int, depth: Int) throws(PropertyListRejection) -> Item {
    let offset = layout.uncheckedOffset(index)
    let isInside = offset >= 8 && offset < tableOffset
    if isInside, Self.isContainer(bytes[offset]) {
      if index == topInProgress {
        return .container(try revisit(index, at: offset, .inProgress, depth: depth))
      }
      if let state = containers[index] {
        return .container(try revisit(index, at: offset, state, depth: depth))
      }
    }
    guard depth <= limits.maximumDepth else { throw tooDeep() }
    guard isInside else {
      throw BinaryPropertyListLayout.rejection(
        "object \(index) has an offset outside the object area")
    }
    deepest = max(deepest, depth)
    guard Self.isContainer(bytes[offset]) else {
      checkedObjects += 1
      return .scalar(try scalar(index, at: offset))
    }
    containers[index] = .inProgress
    let before = Subtree(objects: expandedObjects, bytes: expandedBytes, height: deepest)
    deepest = depth
    let value = try container(index, at: offset, depth: depth)
    let subtree = Subtree(
      objects: expandedObjects - before.objects, bytes: expandedBytes - before.bytes,
      height: deepest - depth + 1)
    deepest = max(before.height, deepest)
    containers[index] = .done(subtree)
    return .container(value)
  }

  /// An object checked: a scalar (its bytes, to decode or compare), or a container's value.
  ///
  /// The container's value is boxed (`indirect`): with an `Any` (32 bytes) in place, each copy
  /// of an item, one per entry of the top dictionary, went through the enum's value witnesses
  /// and `memcpy`, 84 instructions an entry of a one-key write's check at 100,000 keys; a
  /// box is one reference, and a scalar item copies as plain bytes.
  enum Item {
    case scalar(Scalar)
    indirect case container(Any)
  }

  /// The top object when it is a dictionary, marked as being read (a reference back to it is a
  /// cycle), counted and with its references checked; nil when it is not a dictionary (read it
  /// with ``value(_:depth:)`` then, which checks it).
  mutating func topDictionary() throws(PropertyListRejection) -> Container? {
    let offset = layout.uncheckedOffset(topObject)
    guard offset >= 8, offset < tableOffset, bytes[offset] >> 4 == 0xD else { return nil }
    topInProgress = topObject
    deepest = 1
    return try references(of: topObject, at: offset)
  }

  /// A container met before: a cycle when it is still being read; else its subtree is checked
  /// against the depth and expansion limits at this reference before its value is shared (read
  /// again, once, at its second reference).
  private mutating func revisit(
    _ index: Int, at offset: Int, _ state: ContainerState, depth: Int
  ) throws(PropertyListRejection) -> Any {
    guard case .done(let subtree) = state else {
      throw BinaryPropertyListLayout.rejection("object \(index) contains itself")
    }
    guard depth - 1 + subtree.height <= limits.maximumDepth else { throw tooDeep() }
    let before = (expandedObjects, expandedBytes)
    try count(objects: subtree.objects, bytes: subtree.bytes)
    if let value = sharedValues[index] {
      deepest = max(deepest, depth - 1 + subtree.height)
      return value
    }
    // Read again, counting the same values again from where they were before.
    (expandedObjects, expandedBytes) = before
    deepest = max(deepest, depth)
    let value = try container(index, at: offset, depth: depth)
    sharedValues[index] = value
    return value
  }

  /// The array or dictionary at byte `offset`: its references checked, its elements read.
  private mutating func container(_ index: Int, at offset: Int, depth: Int)
    throws(PropertyListRejection) -> Any
  {
    let container = try references(of: index, at: offset)
    guard bytes[offset] >> 4 == 0xD else {
      var array: [Any] = []
      array.reserveCapacity(capacity(for: container.count))
      for position in 0..<container.count {
        let element = try reference(container.start, position, of: index, at: offset)
        array.append(try value(element, depth: depth + 1))
      }
      return array
    }
    return try dictionary(container, depth: depth)
  }

  /// The container `index` at byte `offset`, counted as one value, with its references checked
  /// to lie in the object area.
  mutating func references(of index: Int, at offset: Int) throws(PropertyListRejection)
    -> Container
  {
    checkedObjects += 1
    try count(objects: 1, bytes: 0)
    let (start, count) = try layout.lengthAndStart(index, at: offset)
    let (size, overflow) = count.multipliedReportingOverflow(
      by: (bytes[offset] >> 4 == 0xD ? 2 : 1) * referenceSize)
    guard !overflow else { throw layout.objectRejection(index, offset, "is longer than the file") }
    try layout.requireBytes(start, size, index, offset)
    reachedBytes += start + size - offset
    return Container(index: index, offset: offset, start: start, count: count)
  }

  /// The capacity to reserve for `count` elements: every element is at least one value, so more
  /// than the limits allow is refused as it is read, never allocated first.
  func capacity(for count: Int) -> Int {
    min(count, maximumObjects - expandedObjects + 1)
  }

  /// A dictionary object: where its references start and how many entries it has.
  struct Container {
    let index: Int
    let offset: Int
    let start: Int
    let count: Int
  }

  /// The nested dictionary `container`: a `[String: Any]`, or — when two of its keys are equal
  /// as `String`s (canonical equivalence) but differ in their Unicode scalars — a
  /// `[PropertyListKey: Any]`, which holds both, as the file, CoreFoundation and python's
  /// `plistlib` do (the entries read so far move to it, and the others are read into it). A key
  /// held twice exactly keeps its first value (as at the top).
  private mutating func dictionary(_ container: Container, depth: Int)
    throws(PropertyListRejection) -> Any
  {
    var dictionary: [String: Any] = [:]
    dictionary.reserveCapacity(capacity(for: container.count))
    for position in 0..<container.count {
      let (key, element) = try entry(position, of: container, depth: depth)
      guard let first = dictionary.updateValue(element, forKey: key.string) else { continue }
      // The dictionary kept the key met first; told apart from this one by their scalars.
      let earlier = PropertyListKey(dictionary.keys[dictionary.index(forKey: key.string)!])
      guard earlier != key else {
        dictionary[key.string] = first
        continue
      }
      // The entries read so far move to exact keys, and the others are read into them.
      var exact = [PropertyListKey: Any](exactKeys: dictionary)
      exact[earlier] = first
      exact[key] = element
      try add(position + 1..<container.count, of: container, depth: depth, to: &exact)
      return exact
    }
    return dictionary
  }

  /// Adds the entries at `positions` of the dictionary `container` at `depth` to `dictionary`,
  /// by exact key; a key held twice keeps its first value.
  mutating func add(
    _ positions: Range<Int>, of container: Container, depth: Int,
    to dictionary: inout [PropertyListKey: Any]
  ) throws(PropertyListRejection) {
    let bytes = bytes
    _ = try forEachEntry(at: positions, of: container, depth: depth) { _, key, _, _, item in
      let key = PropertyListKey(key.string(in: bytes))
      if let first = dictionary.updateValue(Self.value(of: item, in: bytes), forKey: key) {
        dictionary[key] = first
      }
      return true
    }
  }

  /// The key and value of entry `position` of the dictionary `container` at `depth`.
  mutating func entry(_ position: Int, of container: Container, depth: Int)
    throws(PropertyListRejection) -> (key: PropertyListKey, value: Any)
  {
    let entry = try checkedEntry(position, of: container, depth: depth)
    return (PropertyListKey(entry.key.string(in: bytes)), value(of: entry.item))
  }

  /// The key of entry `position` of the dictionary `container` at `depth`, checked: a string.
  mutating func keyItem(_ position: Int, of container: Container, depth: Int)
    throws(PropertyListRejection) -> Scalar
  {
    let key = try reference(container.start, position, of: container.index, at: container.offset)
    let keyOffset = layout.uncheckedOffset(key)
    guard keyOffset >= 8, keyOffset < tableOffset,
      bytes[keyOffset] >> 4 == 0x5
        || bytes[keyOffset] >> 4 == 0x6,
      case .scalar(let scalar) = try item(key, depth: depth + 1)
    else {
      throw layout.objectRejection(
        container.index, container.offset,
        "is a dictionary whose key \(position) is not a string")
    }
    return scalar
  }

  /// Whether a marker is an array's or a dictionary's.
  private static func isContainer(_ marker: UInt8) -> Bool {
    marker >> 4 == 0xA || marker >> 4 == 0xD
  }

  /// The object that reference `position` of the references starting at byte `start` (in the
  /// container `index` at byte `offset`) refers to, checked against the object count.
  func reference(_ start: Int, _ position: Int, of index: Int, at offset: Int)
    throws(PropertyListRejection) -> Int
  {
    let child = layout.uncheckedReference(start, position)
    guard child < UInt64(objectCount) else {
      throw layout.objectRejection(
        index, offset, "refers to object \(child), beyond the \(objectCount) objects of the file")
    }
    return Int(child)
  }

  /// Counts values and bytes met, and throws once they exceed the file's limits.
  mutating func count(objects: Int, bytes: Int) throws(PropertyListRejection) {
    expandedObjects += objects
    expandedBytes += bytes
    guard expandedObjects <= maximumObjects else {
      throw BinaryPropertyListLayout.rejection(
        "it expands to more than \(maximumObjects) values (objects referred to many times)")
    }
    guard expandedBytes <= maximumBytes else {
      throw BinaryPropertyListLayout.rejection(
        "it expands to more than \(maximumBytes) bytes of strings and data (objects referred to many times)"
      )
    }
  }

  private func tooDeep() -> PropertyListRejection {
    BinaryPropertyListLayout.rejection(
      "arrays and dictionaries are nested deeper than \(limits.maximumDepth) levels")
  }
}
