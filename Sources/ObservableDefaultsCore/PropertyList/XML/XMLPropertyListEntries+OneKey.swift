import Foundation

extension XMLPropertyListEntries {
  /// The entry of `key` in the top dictionary of the XML text `data`, as the reader reads it,
  /// building no other value: the whole text is checked by the scan the one-shot write makes
  /// (``places(of:in:)``: every entry checked as the reader checks it, nothing built, the key
  /// texts compared with `key`'s UTF-8), and only the value element of `key` is read
  /// (``value(of:)``). A one-key `settings-editor read` of a 100,000-key XML suite built every
  /// value before: 371 M instructions, 79 ms, four times a one-key write of the same file.
  ///
  /// - Returns: The entry of `key` alone (empty when the dictionary does not hold it), or nil
  ///   when the text is not in the form the scan finds keys in: not UTF-8 XML, a root that is
  ///   not a dictionary with entries, a key written with a reference, a CDATA section or a
  ///   carriage return (which only the reader's decoding compares exactly), or `key` held twice
  ///   (the reader keeps the last). Parse the text whole then.
  /// - Throws: ``PropertyListRejection`` when the text is refused.
  static func entry(ofTopKey key: PropertyListKey, in data: Data) throws(PropertyListRejection)
    -> [PropertyListKey: Any]?
  {
    try data.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
      guard let places = try places(of: [key], in: bytes), places.isPlain,
        !places.isHeldTwice, places.end != nil
      else { return nil }
      guard let place = places.found[0] else { return [:] }
      return [key: try value(of: Data(bytes[place.value]))]
    }
  }
}
