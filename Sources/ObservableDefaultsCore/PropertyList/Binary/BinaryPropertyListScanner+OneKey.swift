import Foundation

extension BinaryPropertyListScanner {
  /// The entry of `key` in the top dictionary of `data`, as ``root(of:)`` reads it, decoding no
  /// other value: the whole file is checked in the same one pass (every entry, as the root's
  /// read checks it, so a file that read refuses is refused with the same reason), the key
  /// objects are compared with `key`'s bytes (``BinaryPropertyListKeyMatcher``), and only the
  /// value of the first entry that holds `key` (the one CoreFoundation's reader keeps) is
  /// decoded. A one-key `settings-editor read` decoded every value of the file before.
  ///
  /// - Returns: The top dictionary's entry of `key` alone (empty when it holds no such key),
  ///   or nil when the top object is not a dictionary (``root(of:)`` reads and checks it then).
  /// - Throws: ``PropertyListRejection`` when the bytes are refused.
  static func entry(ofTopKey key: PropertyListKey, in data: Data) throws(PropertyListRejection)
    -> [PropertyListKey: Any]?
  {
    try scanning(data) { scanner throws(PropertyListRejection) in
      guard let top = try scanner.topDictionary() else { return nil }
      let matcher = BinaryPropertyListKeyMatcher([key])
      let bytes = scanner.bytes
      // Whether the key was met is a flag apart: testing the optional item at each entry
      // copied it (0.19 M instructions at 1,000 keys).
      var found: Item?
      var isFound = false
      _ = try scanner.forEachEntry(at: 0..<top.count, of: top, depth: 1) {
        _, keyScalar, _, _, item in
        if !isFound, matcher.match(keyScalar, in: bytes) != nil {
          found = item
          isFound = true
        }
        return true
      }
      try scanner.requireObjectAreaMostlyReached()
      guard let found else { return [:] }
      return [key: scanner.value(of: found)]
    }
  }
}
