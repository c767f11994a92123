package import Foundation

/// The objects of the last binary file this process wrote for a suite, kept so that the next
/// version is written by adding only the changed keys' objects.
///
/// A flush used to encode every key again: at 10,000 keys that was three quarters of it (the
/// profile: hashing, copying and allocating per value). With a draft, a change adds its new
/// objects to the table (equal scalars are still stored once) and points the root dictionary at
/// them; writing the file is then one pass that copies bytes. The objects no longer referenced
/// stay in the file until they reach a quarter of it, when the draft is made again from the
/// values (`apply(_:)` returns false): so a one-value edit grows the file by the new value's
/// bytes and one offset, as before, and a file never holds more than about twice what its
/// values need, whatever is rewritten (a replaced array or dictionary counts with everything it
/// held: counting only its references let a rewritten 8 MB array grow a suite past the 256 MiB
/// a reader accepts). Readers (ours, Foundation's, Apple's) start from the top object and never
/// see unreferenced objects.
///
/// `package`: `plist-fuzz` drives drafts directly in its growth mode.
package struct BinaryPropertyListDraft {
  private var table: BinaryPropertyListObjectTable
  /// The root dictionary's keys, in the order of its references.
  private var keys: [PropertyListKey]
  /// The position of each key in ``keys``.
  private var positions: [PropertyListKey: Int]
  /// At most how many bytes of the file no reference reaches any more (an upper bound: a
  /// replaced scalar may still be shared by another key), in the units of
  /// ``BinaryPropertyListObjectTable/footprint(of:)``.
  private var unreferencedBytes = 0
  /// What the file expands to when read (``PropertyListExpansion``), carried through each
  /// ``apply(_:)`` by the values it replaces and adds: a reader refuses a file past
  /// ``PropertyListLimits`` (``checkReadable(at:changing:)``).
  private var expansion: PropertyListExpansion

  /// Encodes `values` as the root dictionary of a new file.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` naming a value that is not a property-list value.
  package init(values: [PropertyListKey: Any]) throws(PropertyListEncodingFailure) {
    table = BinaryPropertyListObjectTable(sizedFor: values)
    _ = try BinaryPropertyListWriter.add(values, to: &table)
    // The writer adds a dictionary's keys in its iteration order, which is this one.
    keys = Array(values.keys)
    positions = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
    expansion = table.expansion(of: 0)
  }

  /// Refuses the file (``data()``) when a reader would: past the values or the string and data
  /// bytes it may expand to (``PropertyListLimits/checkBinaryFile(expandingTo:objects:size:of:changing:)``).
  ///
  /// - Parameters:
  ///   - size: The bytes of the file.
  ///   - url: The file, as the error names it.
  ///   - keys: The top-level keys the write changes, when known.
  /// - Throws: ``PropertyListError`` naming the limit.
  func checkReadable(size: Int, of url: URL, changing keys: [String]?) throws {
    try PropertyListLimits.preferences.checkBinaryFile(
      expandingTo: expansion, objects: table.objects.count, size: size, of: url, changing: keys)
  }

  /// The bytes of the file.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when memory for them runs out.
  package func data() throws(PropertyListEncodingFailure) -> Data {
    try BinaryPropertyListWriter.write(table)
  }

  /// The bytes of the file (``data()``) in pieces to write one after the other, each large data
  /// value a piece of its own, not copied
  /// (``BinaryPropertyListWriter/pieces(of:leavingOutLargeData:)``).
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when memory for them runs out.
  func pieces() throws(PropertyListEncodingFailure) -> [Data] {
    try BinaryPropertyListWriter.pieces(of: table, leavingOutLargeData: true)
  }

  /// The bytes of the scalars this draft holds copies of: not a large data value's, held as it
  /// was set (``BinaryPropertyListObjectTable/largeData``).
  var copiedScalarBytes: Int { table.scalarBytes.count }

  /// The entries of the file (``data()``), from the objects: no key is decoded again.
  func entries() -> PropertyListEntries {
    let root = table.objects[0]
    let fingerprints = table.scalarBytes.withUnsafeBytes { scalars in
      (0..<root.count).map { position in
        let value = table.references[root.start + root.count + position]
        let key = table.objects[table.references[root.start + position]]
        return PropertyListEntries.fingerprint(
          key: UnsafeRawBufferPointer(rebasing: scalars[key.start..<key.start + key.count]),
          valueHash: table.objects[value].isScalar ? table.hash(ofScalar: value) : nil)
      }
    }
    return PropertyListEntries(keys: keys, fingerprints: fingerprints)
  }

  /// Applies `changes` (canonical values) to the root dictionary.
  ///
  /// - Returns: false when the objects and references no longer used have grown past a quarter
  ///   of the file: make a new draft from the values instead (this one is then unusable).
  /// - Throws: ``PropertyListEncodingFailure`` naming a value that is not a property-list value
  ///   (this draft is then unusable too).
  package mutating func apply(_ changes: [PropertyListKey: PropertyListChange])
    throws(PropertyListEncodingFailure)
    -> Bool
  {
    var root = table.objects[0]
    // Values about to be replaced that already make the draft too loose: make a new one at
    // once rather than encode the new values twice (a 50 MB value replaced, each time).
    let replaced = changes.keys.reduce(0) { total, key in
      guard let position = positions[key] else { return total }
      return total + table.footprint(of: table.references[root.start + root.count + position])
    }
    guard !isLoose(adding: replaced) else { return false }
    var added: [(key: PropertyListKey, value: Int)] = []
    var removed: [Int] = []
    for (key, change) in changes {
      switch change {
      case .set(let value):
        let object = try BinaryPropertyListWriter.add(value, to: &table)
        expansion = expansion + table.expansion(of: object)
        if let position = positions[key] {
          let slot = root.start + root.count + position
          unreferencedBytes += table.footprint(of: table.references[slot])
          expansion = expansion - table.expansion(of: table.references[slot])
          table.setReference(object, at: slot)
        } else {
          added.append((key, object))
        }
      case .remove:
        guard let position = positions[key] else { continue }
        expansion =
          expansion - table.expansion(of: table.references[root.start + position])
          - table.expansion(of: table.references[root.start + root.count + position])
        unreferencedBytes += table.footprint(of: table.references[root.start + position])
        unreferencedBytes += table.footprint(
          of: table.references[root.start + root.count + position])
        removed.append(position)
      }
    }
    if !added.isEmpty || !removed.isEmpty {
      rebuildRoot(adding: added, removing: removed)
      root = table.objects[0]
    }
    return !isLoose(adding: 0)
  }

  /// Whether the objects and references no longer used, with `bytes` more, pass a quarter of
  /// the file.
  private func isLoose(adding bytes: Int) -> Bool {
    unreferencedBytes + bytes + 4 * table.unusedReferences > table.fileBytesBound / 4 + 4096
  }

  /// Gives the root dictionary its new entries: each removed position takes the last entry's
  /// place (so no other key moves), then the added keys follow.
  private mutating func rebuildRoot(
    adding added: [(key: PropertyListKey, value: Int)], removing removed: [Int]
  ) {
    let root = table.objects[0]
    var keyReferences = Array(table.references[root.start..<root.start + root.count])
    var valueReferences = Array(
      table.references[root.start + root.count..<root.start + 2 * root.count])
    for position in removed.sorted(by: >) {
      positions[keys[position]] = nil
      let last = keys.count - 1
      if position != last {
        keys[position] = keys[last]
        keyReferences[position] = keyReferences[last]
        valueReferences[position] = valueReferences[last]
        positions[keys[position]] = position
      }
      keys.removeLast()
      keyReferences.removeLast()
      valueReferences.removeLast()
    }
    for (key, value) in added {
      positions[key] = keys.count
      keys.append(key)
      let keyObject = table.addScalar {
        BinaryPropertyListWriter.appendString(key.string, to: &$0)
      }
      expansion = expansion + table.expansion(of: keyObject)
      keyReferences.append(keyObject)
      valueReferences.append(value)
    }
    table.replaceReferences(of: 0, with: keyReferences + valueReferences)
  }
}
