import Foundation

/// The objects of a binary property list being written (`bplist00`, Apple's CFBinaryPList
/// format), in the order they will be written, with equal scalars stored once.
///
/// Scalars (strings, numbers, booleans, dates, data) are encoded as they are added, into one
/// buffer; an object whose encoded bytes equal an earlier object's is not added again and the
/// earlier object's index is returned instead, as Apple's writer shares equal strings, numbers,
/// dates and data. Equality is of the encoded bytes, so the integer 1, the real 1.0 and `true`
/// stay three objects, and two strings that Swift compares equal but that differ in their
/// Unicode scalars (a precomposed and a decomposed "é") stay two. Arrays and dictionaries are
/// never shared (Apple's writer does not share them either).
struct BinaryPropertyListObjectTable {
  /// What one object is: a scalar encoded in ``scalarBytes``, a data value of
  /// ``largeScalarBytes`` bytes or more kept as it was given (``largeData``), a container.
  enum Kind: UInt8 { case scalar, largeData, array, dictionary }

  /// One object: a scalar's bytes in ``scalarBytes``, a large data value (`start` its index in
  /// ``largeData``, `count` its bytes in the file: marker, length and contents), or a
  /// container's references in ``references`` (a dictionary's `count` key references, then its
  /// `count` value references).
  struct Object {
    var kind: Kind
    var start: Int
    var count: Int

    /// Whether it is a scalar, encoded or large data.
    var isScalar: Bool { kind == .scalar || kind == .largeData }
  }

  /// The objects, by index; object 0 is the first added (the root).
  private(set) var objects: [Object] = []
  /// The encoded scalars, one after another (marker, length and contents).
  private(set) var scalarBytes: [UInt8] = []
  /// The object indices every container refers to.
  private(set) var references: [Int] = []
  /// The data values of ``largeScalarBytes`` bytes or more, by their objects' `start`: the
  /// values themselves, written from where they are (a 50 MB value was copied into
  /// ``scalarBytes`` first, 50 MB of new pages at each flush that set it).
  private(set) var largeData: [Data] = []
  /// The bytes the objects of ``largeData`` take in the file.
  private var largeDataBytes = 0

  /// The bytes of the scalars in the file: ``scalarBytes`` and the objects of ``largeData``.
  var scalarByteCount: Int { scalarBytes.count + largeDataBytes }

  /// Open-addressing hash table of scalar objects; a slot holds the high 32 bits of the
  /// object's hash (its position in the table, and a first check without touching the object)
  /// above its index + 1 (0 = empty). One slot is one memory access per probe: the profile of a
  /// flush of 100,000 keys was the table's cache misses.
  private var slots: [UInt64]
  private var scalarCount = 0

  /// Creates a table sized for `values` as the root dictionary: two objects per entry, and the
  /// bytes of its strings and data (so that a large value is copied in once, not again when
  /// the buffer grows after it).
  init(sizedFor values: [PropertyListKey: Any]) {
    var bytes = 32 * values.count
    for value in values.values {
      if let data = value as? Data {
        bytes += data.count < Self.largeScalarBytes ? data.count : 0
      } else if let string = value as? String {
        bytes += 2 * string.utf8.count
      }
    }
    self.init(capacity: 2 * values.count + 1, bytes: bytes)
  }

  /// Creates a table sized for about `capacity` objects and `bytes` bytes of scalars.
  init(capacity: Int, bytes: Int) {
    objects.reserveCapacity(capacity)
    scalarBytes.reserveCapacity(bytes)
    var size = 1024
    while size < capacity * 2, size < 1 << 31 { size <<= 1 }
    slots = Array(repeating: 0, count: size)
  }

  /// Encodes a scalar with `encode` (which appends its bytes to the buffer it is given) and
  /// returns its object index: a new object, or the earlier object with the same bytes.
  mutating func addScalar(_ encode: (inout [UInt8]) -> Void) -> Int {
    let start = scalarBytes.count
    encode(&scalarBytes)
    let length = scalarBytes.count - start
    let hash = scalarBytes.withUnsafeBytes { ByteHash.of($0.baseAddress! + start, length) }
    switch find(hash, { bytesEqual($0, start: start, length: length) }) {
    case .found(let existing):
      scalarBytes.removeLast(length)
      return existing
    case .free(let slot):
      return add(Object(kind: .scalar, start: start, count: length), hash: hash, at: slot)
    }
  }

  /// Adds the data value `data` of ``largeScalarBytes`` bytes or more as it is, not copied
  /// (``largeData``), and returns its object index: a new object, or the earlier one with the
  /// same bytes. Its ``ByteHash`` is that of its encoded bytes, as ``addScalar(_:)`` hashes a
  /// scalar's.
  mutating func addLargeData(_ data: Data) -> Int {
    var header: [UInt8] = []
    BinaryPropertyListWriter.appendMarker(0x40, count: data.count, to: &header)
    let hash = header.withUnsafeBytes { header in
      data.withUnsafeBytes { ByteHash.of(header, followedBy: $0) }
    }
    let found = find(hash) { $0.kind == .largeData && largeData[$0.start] == data }
    switch found {
    case .found(let existing):
      return existing
    case .free(let slot):
      let length = header.count + data.count
      largeData.append(data)
      largeDataBytes += length
      return add(
        Object(kind: .largeData, start: largeData.count - 1, count: length), hash: hash, at: slot)
    }
  }

  /// Where the probe for a scalar of `hash` ended: at an object `isEqual` finds equal, or at the
  /// free slot for a new one.
  private enum Probe {
    case found(Int)
    case free(slot: Int)
  }

  /// Probes the table for a scalar of `hash` that `isEqual` finds equal.
  @inline(__always)
  private func find(_ hash: UInt64, _ isEqual: (Object) -> Bool) -> Probe {
    let tag = hash >> 32
    let mask = slots.count - 1
    var slot = Int(tag) & mask
    while slots[slot] != 0 {
      let entry = slots[slot]
      let existing = Int(entry & 0xFFFF_FFFF) - 1
      if entry >> 32 == tag, isEqual(objects[existing]) { return .found(existing) }
      slot = (slot + 1) & mask
    }
    return .free(slot: slot)
  }

  /// Adds the scalar `object` of `hash` at the free `slot` of the table; its index.
  private mutating func add(_ object: Object, hash: UInt64, at slot: Int) -> Int {
    let index = objects.count
    objects.append(object)
    if object.count >= Self.largeScalarBytes { largeScalarHashes[index] = hash }
    slots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
    scalarCount += 1
    if scalarCount * 2 > slots.count { grow() }
    return index
  }

  /// Scalars of at least this many bytes keep their ``ByteHash`` (``hash(ofScalar:)``).
  static let largeScalarBytes = 64 << 10
  /// The ``ByteHash`` of each scalar of ``largeScalarBytes`` bytes or more, by object index.
  private var largeScalarHashes: [Int: UInt64] = [:]

  /// The ``ByteHash`` of the bytes of scalar object `index`: kept when it was added for one of
  /// ``largeScalarBytes`` bytes or more (a draft's entries hashed a 50 MB data value again at
  /// each flush, the one that set it and every later one), else computed.
  func hash(ofScalar index: Int) -> UInt64 {
    if let hash = largeScalarHashes[index] { return hash }
    let object = objects[index]
    return scalarBytes.withUnsafeBytes { ByteHash.of($0.baseAddress! + object.start, object.count) }
  }

  /// Adds a container of `count` entries (pairs, for a dictionary) whose references are set
  /// afterwards with ``setReference(_:at:)``; returns its index and where its references start.
  mutating func addContainer(_ kind: Kind, count: Int) -> (index: Int, references: Int) {
    let index = objects.count
    let start = references.count
    objects.append(Object(kind: kind, start: start, count: count))
    lastContainer = index
    references.append(contentsOf: repeatElement(0, count: kind == .dictionary ? 2 * count : count))
    return (index, start)
  }

  /// Sets the reference at position `position` of ``references`` to object `object`.
  mutating func setReference(_ object: Int, at position: Int) {
    references[position] = object
  }

  /// Gives container `index` new references (a dictionary's keys, then its values): in place
  /// when its references are the last ones (it is the container added or moved last), else
  /// after the others (the old ones then stay in ``references``, unused, and are counted in
  /// ``unusedReferences``).
  mutating func replaceReferences(of index: Int, with newReferences: [Int]) {
    let object = objects[index]
    let isDictionary = object.kind == .dictionary
    if lastContainer == index {
      references.replaceSubrange(object.start..., with: newReferences)
    } else {
      unusedReferences += (isDictionary ? 2 : 1) * object.count
      objects[index].start = references.count
      references.append(contentsOf: newReferences)
      lastContainer = index
    }
    objects[index].count = isDictionary ? newReferences.count / 2 : newReferences.count
  }

  /// How many of ``references`` no container uses any more.
  private(set) var unusedReferences = 0
  /// The container whose references are the last of ``references``.
  private var lastContainer: Int?

  /// At most the bytes object `index` and everything it holds take in a file: a scalar's bytes,
  /// a container's marker and references, each object's offset and reference, and for a
  /// container the same of every object it holds (a scalar shared with another container is
  /// counted here too, so this is an upper bound). Containers are never shared, so this visits
  /// each object of the value once.
  func footprint(of index: Int) -> Int {
    let object = objects[index]
    switch object.kind {
    case .scalar, .largeData: return object.count + Self.perObject
    case .array, .dictionary:
      let end = object.start + (object.kind == .dictionary ? 2 : 1) * object.count
      return references[object.start..<end].reduce(Self.perContainer + Self.perObject) {
        $0 + footprint(of: $1)
      }
    }
  }

  /// What object `index` expands to when read (``PropertyListExpansion``): it and every object
  /// it holds, counted once per reference, as a reader counts them. Containers are never shared,
  /// so this visits each reference of the value once.
  func expansion(of index: Int) -> PropertyListExpansion {
    let object = objects[index]
    switch object.kind {
    case .scalar:
      let marker = scalarBytes[object.start]
      guard (0x4...0x6).contains(marker >> 4) else { return PropertyListExpansion(values: 1) }
      // The marker, then an integer object with the length when it does not fit in the marker.
      let header = marker & 0xF != 0xF ? 1 : 2 + 1 << (scalarBytes[object.start + 1] & 0xF)
      return PropertyListExpansion(values: 1, bytes: object.count - header)
    case .largeData:
      return PropertyListExpansion(values: 1, bytes: largeData[object.start].count)
    case .array, .dictionary:
      let end = object.start + (object.kind == .dictionary ? 2 : 1) * object.count
      return references[object.start..<end].reduce(PropertyListExpansion(values: 1)) {
        $0 + expansion(of: $1)
      }
    }
  }

  /// At most the bytes of the file ``BinaryPropertyListWriter/write(_:)`` makes of this table,
  /// every object counted (referenced or not), in the units of ``footprint(of:)``.
  var fileBytesBound: Int {
    scalarByteCount + objects.count * Self.perObject + references.count * Self.perReference
  }

  /// The bytes an object adds besides its contents: its offset in the offset table and the
  /// reference to it (4 bytes each at most: a file of this package is below 256 MiB and holds
  /// fewer than 2³² objects).
  private static let perObject = 8
  /// The bytes a reference takes, at most.
  private static let perReference = 4
  /// A container's marker and count, at most.
  private static let perContainer = 10

  private func bytesEqual(_ object: Object, start: Int, length: Int) -> Bool {
    guard object.kind == .scalar, object.count == length else { return false }
    return scalarBytes.withUnsafeBytes { buffer in
      memcmp(buffer.baseAddress! + object.start, buffer.baseAddress! + start, length) == 0
    }
  }

  private mutating func grow() {
    var bigger = [UInt64](repeating: 0, count: slots.count * 2)
    let mask = bigger.count - 1
    for entry in slots where entry != 0 {
      var slot = Int(entry >> 32) & mask
      while bigger[slot] != 0 { slot = (slot + 1) & mask }
      bigger[slot] = entry
    }
    slots = bigger
  }
}
