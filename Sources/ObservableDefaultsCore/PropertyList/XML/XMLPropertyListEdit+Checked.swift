import Foundation

extension XMLPropertyListEdit {
  /// `text` checked whole with the `changes` that change a value written into it, for a process
  /// that writes a few keys and keeps nothing of the file (``PropertyListFile/write(_:)``).
  ///
  /// The check is the reader's own scan (``XMLPropertyListScanner``: what it refuses is refused
  /// here), building nothing per entry: no value, entry, fingerprint or key string; only the
  /// changed keys' entries are found (``XMLPropertyListPlaces``) and their values before read.
  ///
  /// - Returns: nil when the text is not in the plain form ``XMLPropertyListEntries`` scans, its
  ///   root is not a dictionary with entries, or a changed key is held twice: read and write the
  ///   document then.
  /// - Throws: ``PropertyListRejection`` when `text` is refused; the encoder's error when a
  ///   value is not a property-list value.
  static func applyingChecked(_ changes: [PropertyListKey: PropertyListChange], to text: Data)
    throws -> PropertyListSpliceOutcome?
  {
    let keys = Array(changes.keys)
    let found = try text.withUnsafeBytesRejecting {
      (bytes) throws(PropertyListRejection) -> (
        places: [PropertyListKey: XMLPropertyListPlaces.Place], end: Int,
        old: [PropertyListKey: Any]
      )? in
      guard let places = try XMLPropertyListEntries.places(of: keys, in: bytes),
        places.isPlain, !places.isHeldTwice, let end = places.end
      else { return nil }
      var byKey: [PropertyListKey: XMLPropertyListPlaces.Place] = [:]
      var old: [PropertyListKey: Any] = [:]
      for (index, place) in places.found {
        byKey[keys[index]] = place
        old[keys[index]] = try XMLPropertyListEntries.value(of: Data(bytes[place.value]))
      }
      return (byKey, end, old)
    }
    guard let (places, end, old) = found else { return nil }
    var edits: [Edit] = []
    var added = Data()
    var before: [PropertyListKey: Any?] = [:]
    for (key, change) in changes.sorted(by: { $0.key < $1.key }) {
      if case .set(let value) = change, let old = old[key], propertyListValuesEqual(old, value) {
        continue
      }
      switch try edit(key, change, at: places[key]) {
      case nil: return nil
      case .replaced(let edit)?, .removed(let edit)?: edits.append(edit)
      case .added(let element, _)?: added.append(try element.text())
      case .unchanged?: continue
      }
      before[key] = .some(old[key])
    }
    guard !before.isEmpty else { return .unchanged }
    edits.sort { $0.range.lowerBound < $1.range.lowerBound }
    if !added.isEmpty { edits.append(Edit(range: end..<end, bytes: added)) }
    return .spliced(
      try pieces(of: text, edits), old: before, encodedKeys: before.count,
      copiedBytes: text.count)
  }
}
