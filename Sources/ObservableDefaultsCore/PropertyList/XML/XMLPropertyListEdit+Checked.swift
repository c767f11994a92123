import Foundation

extension XMLPropertyListEdit {
  /// `text` checked whole (``XMLPropertyListEntries/topDictionary(_:)``: one scan, no value
  /// built) with the `changes` that change a value written into it; only the changed keys'
  /// values before are read. For a process that writes a few keys and keeps nothing of the file
  /// (``PropertyListFile/write(_:)``).
  ///
  /// - Returns: nil when the text is not in the plain form ``XMLPropertyListEntries`` scans (or
  ///   holds a key twice): read and write the document then.
  /// - Throws: ``PropertyListRejection`` when `text` is refused; the encoder's error when a
  ///   value is not a property-list value.
  static func applyingChecked(_ changes: [PropertyListKey: PropertyListChange], to text: Data)
    throws -> PropertyListSpliceOutcome?
  {
    let changedKeys = Array(changes.keys)
    let found = try text.withUnsafeBytesRejecting {
      (bytes) throws(PropertyListRejection) -> (PropertyListEntries, [PropertyListKey: Any])? in
      guard let dictionary = try XMLPropertyListEntries.topDictionary(bytes),
        let entries = XMLPropertyListEntries.entries(of: dictionary, in: bytes)
      else { return nil }
      var old: [PropertyListKey: Any] = [:]
      // A few keys are compared, not looked up (as ``applying(_:to:known:)`` finds them).
      for (position, key) in entries.keys.enumerated() where changedKeys.contains(key) {
        old[key] = try XMLPropertyListEntries.value(
          of: Data(bytes[dictionary.entries[position].value]))
      }
      return (entries, old)
    }
    guard let (entries, old) = found else { return nil }
    var effective: [PropertyListKey: PropertyListChange] = [:]
    var before: [PropertyListKey: Any?] = [:]
    for (key, change) in changes {
      switch change {
      case .set(let value): if let old = old[key], propertyListValuesEqual(old, value) { continue }
      case .remove: if old[key] == nil { continue }
      }
      effective[key] = change
      before[key] = .some(old[key])
    }
    guard !effective.isEmpty else { return .unchanged }
    guard let edited = try applying(effective, to: text, known: entries) else { return nil }
    return .spliced(
      edited.text, old: before, encodedKeys: effective.count,
      copiedBytes: text.count)
  }
}
