import Foundation

/// Reads an old-style (OpenStep) text property list in one pass, keys exact: the grammar of
/// CoreFoundation's `CFOldStylePList.c` (swift-corelibs-foundation), which Foundation's
/// `PropertyListSerialization` runs.
///
/// `{ key = value; … }` dictionaries, `( value, … )` arrays (a comma may end them), strings
/// quoted with `"` or `'` (escapes `\a \b \f \n \r \t \v`, `\"`, a backslash before any other
/// character, up to three octal digits, `\U` and up to four hexadecimal digits of a UTF-16 code
/// unit) or unquoted (letters, digits and `_$/:.-`), `<…>` data in hexadecimal, `//` and
/// `/* */` comments, and a strings file (a dictionary's entries without braces, `key;` standing
/// for `key = key;`). A key held twice keeps the value met last (``NestedDictionary``). White
/// space or nothing at all is an empty dictionary.
///
/// Refused where CoreFoundation would drop a value silently or read it differently: a value
/// that does not parse inside an array (CoreFoundation drops it when `)` follows), an octal
/// escape above `\177` (a NeXTSTEP character), a `\U` escape that leaves a surrogate unpaired,
/// and text that is not UTF-8. Nesting and element counts are bounded by
/// ``PropertyListLimits``.
package struct OpenStepPropertyListReader {
  private let bytes: UnsafeRawBufferPointer
  private var position = 0
  private let limits: PropertyListLimits
  private var budget: PropertyListReadBudget

  init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) {
    self.bytes = bytes
    self.limits = limits
    budget = PropertyListReadBudget(limits: limits, size: bytes.count)
  }

  /// The root value: a top dictionary is a `[PropertyListKey: Any]`.
  ///
  /// - Throws: ``PropertyListRejection`` naming what is wrong and its line.
  mutating func root() throws(PropertyListRejection) -> Any {
    guard XMLPropertyListScanner.isUTF8(bytes) else { throw rejection("it is not UTF-8 text") }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    let begin = position
    guard skipSpace() else { return [PropertyListKey: Any]() }
    let root = try value(top: true)
    guard skipSpace() else { return root }
    guard root is String else { throw rejection("text follows the property list") }
    // A strings file: entries without braces.
    (position, budget) = (begin, PropertyListReadBudget(limits: limits, size: bytes.count))
    let entries = try dictionaryEntries(top: true)
    guard !skipSpace() else { throw rejection("text follows the property list") }
    return entries
  }

  /// The value at ``position`` (after white space).
  private mutating func value(top: Bool = false) throws(PropertyListRejection) -> Any {
    if let problem = budget.count("values") { throw rejection(problem) }
    guard skipSpace() else { throw rejection("a value is missing at the end") }
    switch bytes[position] {
    case UInt8(ascii: "{"):
      return try nested { (reader) throws(PropertyListRejection) in
        let entries = try reader.dictionaryEntries(top: top)
        guard reader.skipSpace(), reader.bytes[reader.position] == UInt8(ascii: "}") else {
          throw reader.rejection("a dictionary has no closing }")
        }
        reader.position += 1
        return entries
      }
    case UInt8(ascii: "("):
      return try nested { (reader) throws(PropertyListRejection) in try reader.array() }
    case UInt8(ascii: "<"):
      return try data()
    default:
      guard let string = try string() else { throw rejection("a value is missing") }
      return string
    }
  }

  /// `body` one level deeper, past the opening `{` or `(`.
  private mutating func nested(
    _ body: (inout OpenStepPropertyListReader) throws(PropertyListRejection) -> Any
  ) throws(PropertyListRejection) -> Any {
    if let problem = budget.enter() { throw rejection(problem) }
    defer { budget.leave() }
    position += 1
    return try body(&self)
  }

  /// The entries up to a `}` or the end (not read): `key = value;` or `key;`.
  private mutating func dictionaryEntries(top: Bool) throws(PropertyListRejection) -> Any {
    var nested = NestedDictionary()
    var exact: [PropertyListKey: Any] = [:]
    while let key = try string() {
      guard skipSpace() else { throw rejection("the key \"\(key.prefix(40))\" has no value") }
      let value: Any
      switch bytes[position] {
      case UInt8(ascii: ";"): value = key
      case UInt8(ascii: "="):
        position += 1
        value = try self.value()
      default: throw rejection("= or ; is missing after the key \"\(key.prefix(40))\"")
      }
      if top { exact[PropertyListKey(key)] = value } else { nested.set(value, forKey: key) }
      guard skipSpace(), bytes[position] == UInt8(ascii: ";") else {
        throw rejection("; is missing after the value of \"\(key.prefix(40))\"")
      }
      position += 1
    }
    return top ? exact : nested.value
  }

  /// The elements up to `)`, which it reads.
  private mutating func array() throws(PropertyListRejection) -> Any {
    var array: [Any] = []
    while skipSpace(), bytes[position] != UInt8(ascii: ")") {
      array.append(try value())
      guard skipSpace() else { break }
      guard bytes[position] == UInt8(ascii: ",") else { break }
      position += 1
    }
    guard skipSpace(), bytes[position] == UInt8(ascii: ")") else {
      throw rejection("an array has no closing )")
    }
    position += 1
    return array
  }

  /// The hexadecimal data `<…>` at ``position``, white space between its digit pairs.
  private mutating func data() throws(PropertyListRejection) -> Data {
    position += 1
    var data = Data()
    while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
      if skipSpaceCharacter() { continue }
      guard position + 1 < bytes.count, let high = Self.hexDigit(bytes[position]),
        let low = Self.hexDigit(bytes[position + 1])
      else { throw rejection("data is not pairs of hexadecimal digits") }
      data.append(high << 4 | low)
      position += 2
    }
    guard position < bytes.count else { throw rejection("data has no closing >") }
    position += 1
    return data
  }

  /// The quoted or unquoted string at ``position`` (after white space); nil when none starts
  /// there.
  private mutating func string() throws(PropertyListRejection) -> String? {
    guard skipSpace() else { return nil }
    let first = bytes[position]
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") { return try quoted(first) }
    let start = position
    while position < bytes.count, Self.isUnquoted(bytes[position]) { position += 1 }
    guard position > start else { return nil }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// The string quoted by `quote` at ``position``, its escapes replaced.
  private mutating func quoted(_ quote: UInt8) throws(PropertyListRejection) -> String {
    var units: [UInt16] = []
    position += 1
    var start = position
    while position < bytes.count, bytes[position] != quote {
      guard bytes[position] == UInt8(ascii: "\\") else {
        position += 1
        continue
      }
      units += String(decoding: bytes[start..<position], as: UTF8.self).utf16
      position += 1
      guard position < bytes.count else { break }
      units.append(try escaped())
      start = position
    }
    guard position < bytes.count else { throw rejection("a quoted string is not closed") }
    units += String(decoding: bytes[start..<position], as: UTF8.self).utf16
    position += 1
    guard let string = String(validating: units, as: UTF16.self) else {
      throw rejection("a \\U escape leaves a surrogate unpaired")
    }
    return string
  }

  /// The UTF-16 code unit of the escape after a backslash (CoreFoundation's `getSlashedChar`).
  private mutating func escaped() throws(PropertyListRejection) -> UInt16 {
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "7"):
      var value = UInt16(byte - UInt8(ascii: "0"))
      for _ in 0..<2 {
        guard position < bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[position])
        else { break }
        value = value << 3 + UInt16(bytes[position] - UInt8(ascii: "0"))
        position += 1
      }
      guard value < 0x80 else {
        throw rejection("an octal escape above \\177 names a NeXTSTEP character")
      }
      return value
    case UInt8(ascii: "U"):
      var value: UInt16 = 0
      for _ in 0..<4 {
        guard position < bytes.count, let digit = Self.hexDigit(bytes[position]) else { break }
        value = value << 4 | UInt16(digit)
        position += 1
      }
      return value
    case UInt8(ascii: "a"): return 0x07
    case UInt8(ascii: "b"): return 0x08
    case UInt8(ascii: "f"): return 0x0C
    case UInt8(ascii: "n"): return 0x0A
    case UInt8(ascii: "r"): return 0x0D
    case UInt8(ascii: "t"): return 0x09
    case UInt8(ascii: "v"): return 0x0B
    case _ where byte < 0x80: return UInt16(byte)
    default:
      // A backslash before a character beyond ASCII: the character itself.
      position -= 1
      let start = position
      position += 1
      while position < bytes.count, bytes[position] & 0xC0 == 0x80 { position += 1 }
      let units = Array(String(decoding: bytes[start..<position], as: UTF8.self).utf16)
      guard units.count == 1 else {
        throw rejection("a backslash stands before a character beyond U+FFFF")
      }
      return units[0]
    }
  }

  /// Skips white space and comments; false at the end of the bytes.
  private mutating func skipSpace() -> Bool {
    while position < bytes.count {
      if skipSpaceCharacter() { continue }
      guard bytes[position] == UInt8(ascii: "/"), position + 1 < bytes.count else { return true }
      switch bytes[position + 1] {
      case UInt8(ascii: "/"):
        while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
          position += 1
        }
      case UInt8(ascii: "*"):
        position += 2
        while position < bytes.count,
          !(bytes[position] == UInt8(ascii: "*") && position + 1 < bytes.count
            && bytes[position + 1] == UInt8(ascii: "/"))
        {
          position += 1
        }
        position = min(position + 2, bytes.count)
      default: return true
      }
    }
    return false
  }

  /// Moves past one white-space character (tab…carriage return, space, U+2028, U+2029).
  private mutating func skipSpaceCharacter() -> Bool {
    let byte = bytes[position]
    if (0x09...0x0D).contains(byte) || byte == 0x20 {
      position += 1
      return true
    }
    if byte == 0xE2, position + 2 < bytes.count, bytes[position + 1] == 0x80,
      bytes[position + 2] == 0xA8 || bytes[position + 2] == 0xA9
    {
      position += 3
      return true
    }
    return false
  }

  /// Whether `byte` may stand in an unquoted string of the old-style (OpenStep) form: an ASCII
  /// letter or digit, or one of `_$/:.-` (CoreFoundation's `isValidUnquotedStringCharacter` in
  /// `CFOldStylePList.c`). `settings-editor read` prints a text unquoted when all its bytes are.
  package static func isUnquoted(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
      UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private func rejection(_ reason: String) -> PropertyListRejection {
    let end = min(position, bytes.count)
    let line = 1 + bytes[..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    return PropertyListRejection(reason: "text property list, line \(line): " + reason)
  }
}
