import Foundation

/// The exact text form in which the torture test's processes pass property-list values and
/// compare them: byte for byte, never through `String` equality (which merges keys and values
/// that differ only in Unicode normalisation).
///
/// - `s<hex>`: a string, its UTF-8 bytes in hex;
/// - `u<count>x<hex>`: a string of `count` (> 64) copies of one Unicode scalar (its UTF-8 in
///   hex), so a 270 MB value travels as a few bytes;
/// - `i<decimal>`, `t`, `f`, `d<hex>`: an integer, true, false, data;
/// - `z<count>x<hex>`: data of `count` (> 64) copies of one byte;
/// - `[c,c]`: an array; `{k<keyhex>=c,…}`: a dictionary, its entries in the order of their keys'
///   UTF-8 bytes;
/// - `r<text>`, `?<type>`: a real or another type (never written by the test; shown as read).
///
/// `Resources/plist_helper.py` reads and writes the same form from python's plistlib.
enum ValueCode {
  /// Lowercase hex of `bytes`.
  static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of lowercase or uppercase hex text; nil when it is not hex.
  static func bytes(_ hex: Substring) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count.isMultiple(of: 2) else { return nil }
    var bytes = [UInt8]()
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The key `hex` names (its exact scalars), or nil for bad hex.
  static func key(_ hex: Substring) -> String? {
    bytes(hex).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The code of a value as this package reads it.
  static func code(of value: Any) -> String {
    switch value {
    case let string as String: return code(of: string)
    case let flag as Bool: return flag ? "t" : "f"
    case let integer as Int: return "i\(integer)"
    case let data as Data: return code(of: data)
    case let array as [Any]: return "[" + array.map(code(of:)).joined(separator: ",") + "]"
    case let dictionary as [String: Any]:
      let entries = dictionary.map { (hex($0.key.utf8), code(of: $0.value)) }
        .sorted { $0.0 < $1.0 }
      return "{" + entries.map { "k\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
    case let real as Double: return "r\(real)"
    default: return "?\(type(of: value))"
    }
  }

  /// `u<count>x<hex>` for a long string of one repeated scalar, else `s<hex>`; a memcmp of the
  /// string against itself shifted by one scalar decides, so a 270 MB value costs one pass.
  static func code(of string: String) -> String {
    var string = string
    let first = string.unicodeScalars.first
    return string.withUTF8 { bytes in
      guard let first, bytes.count > 64 else {
        return "s" + hex(bytes)
      }
      let width = String(first).utf8.count
      let base = bytes.baseAddress!
      if bytes.count.isMultiple(of: width), memcmp(base, base + width, bytes.count - width) == 0 {
        return "u\(bytes.count / width)x" + hex(String(first).utf8)
      }
      return "s" + hex(bytes)
    }
  }

  /// `z<count>x<hex>` for long data of one repeated byte, else `d<hex>`.
  static func code(of data: Data) -> String {
    data.withUnsafeBytes { bytes in
      guard bytes.count > 64, let base = bytes.baseAddress,
        memcmp(base, base + 1, bytes.count - 1) == 0
      else { return "d" + hex(bytes) }
      return "z\(bytes.count)x" + hex([bytes[0]])
    }
  }

  /// The value of a code, or nil when it is malformed.
  static func value(_ code: String) -> Any? {
    var rest = Substring(code)
    guard let value = parse(&rest), rest.isEmpty else { return nil }
    return value
  }

  private static func parse(_ rest: inout Substring) -> Any? {
    guard let mark = rest.first else { return nil }
    rest = rest.dropFirst()
    switch mark {
    case "[":
      var items: [Any] = []
      while rest.first != "]" {
        guard let item = parse(&rest) else { return nil }
        items.append(item)
        if rest.first == "," { rest = rest.dropFirst() }
      }
      rest = rest.dropFirst()
      return items
    case "{":
      var entries: [String: Any] = [:]
      while rest.first != "}" {
        guard rest.first == "k", let equals = rest.firstIndex(of: "="),
          let key = key(rest[rest.index(after: rest.startIndex)..<equals])
        else { return nil }
        rest = rest[rest.index(after: equals)...]
        guard let item = parse(&rest) else { return nil }
        entries[key] = item
        if rest.first == "," { rest = rest.dropFirst() }
      }
      rest = rest.dropFirst()
      return entries
    default:
      let end = rest.firstIndex { ",]}".contains($0) } ?? rest.endIndex
      let body = rest[..<end]
      rest = rest[end...]
      return scalar(mark, body)
    }
  }

  private static func scalar(_ mark: Character, _ body: Substring) -> Any? {
    switch mark {
    case "s": return key(body)
    case "u":
      let parts = body.split(separator: "x")
      guard parts.count == 2, let count = Int(parts[0]), let unit = key(parts[1]) else {
        return nil
      }
      return String(repeating: unit, count: count)
    case "i": return Int(body)
    case "t": return true
    case "f": return false
    case "d": return bytes(body).map { Data($0) }
    case "z":
      let parts = body.split(separator: "x")
      guard parts.count == 2, let count = Int(parts[0]), let byte = bytes(parts[1]), byte.count == 1
      else { return nil }
      return Data(repeating: byte[0], count: count)
    default: return nil
    }
  }
}
