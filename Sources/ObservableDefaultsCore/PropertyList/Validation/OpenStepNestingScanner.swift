/// Bounds the nesting of an old-style (OpenStep) text property list, which Foundation parses
/// recursively: `(` and `{` open a level outside quoted strings and comments.
enum OpenStepNestingScanner {
  /// - Throws: ``PropertyListRejection`` when arrays and dictionaries nest deeper than
  ///   ``PropertyListLimits/maximumDepth``.
  static func validate(_ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits)
    throws(PropertyListRejection)
  {
    var depth = 0
    var index = 0
    var quote: UInt8? = nil
    while index < bytes.count {
      let byte = bytes[index]
      if let open = quote {
        if byte == UInt8(ascii: "\\") { index += 1 } else if byte == open { quote = nil }
      } else {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
        case UInt8(ascii: "("), UInt8(ascii: "{"):
          depth += 1
          guard depth <= limits.maximumDepth else {
            throw PropertyListRejection(
              reason:
                "text property list: arrays and dictionaries are nested deeper than \(limits.maximumDepth) levels"
            )
          }
        case UInt8(ascii: ")"), UInt8(ascii: "}"): depth -= 1
        case UInt8(ascii: "/")
        where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
          index += 2
          while index + 1 < bytes.count,
            !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
          {
            index += 1
          }
        case UInt8(ascii: "/")
        where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
          while index < bytes.count, bytes[index] != 10 { index += 1 }
        default: break
        }
      }
      index += 1
    }
  }
}
