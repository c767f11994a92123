import Foundation

/// The values of an XML property list in the plain form (see ``XMLPropertyListEntries``), built
/// in one pass over its bytes, in canonical form.
///
/// Foundation's parser took 6.8 s and 684 MB to open a 1,000,000-key suite of 62 MB on this
/// machine: it builds a tree of nodes and bridges every value. Any text outside the plain form
/// (comments, CDATA, a carriage return, an entity other than XML's five and character
/// references, hexadecimal integers, `nan`, a key held twice, invalid UTF-8) gives nil, and the
/// file is parsed by Foundation, as before. The differential tests hold the two parsers to the
/// same values.
extension XMLEntryScanner {
  /// The top dictionary of `data`, by exact key (``PropertyListKey``), or nil when it is not in
  /// the plain form.
  static func values(of data: Data) -> [PropertyListKey: Any]? {
    data.withUnsafeBytes { bytes in
      guard bytes.baseAddress != nil else { return nil }
      var scanner = XMLEntryScanner(bytes: bytes)
      guard scanner.prolog() else { return nil }
      scanner.skipSpace()
      let values: [PropertyListKey: Any]?
      if scanner.consume("<dict/>") {
        values = [:]
      } else {
        values =
          scanner.consume("<dict>")
          ? scanner.entries(depth: 0, into: [:]) : nil
      }
      guard let values, scanner.end() else { return nil }
      return values
    }
  }

  /// The value of `element`, the whole text of one value element; nil outside the plain form.
  static func value(ofElement element: Data) -> Any? {
    element.withUnsafeBytes { bytes in
      guard bytes.baseAddress != nil else { return nil }
      var scanner = XMLEntryScanner(bytes: bytes)
      guard let value = scanner.value(depth: 0), scanner.position == bytes.count else { return nil }
      return value
    }
  }

  /// The value of the element at ``position``, which it moves past.
  private mutating func value(depth: Int) -> Any? {
    guard depth < Self.maximumDepth, position < bytes.count, bytes[position] == UInt8(ascii: "<"),
      let close = find(UInt8(ascii: ">"))
    else { return nil }
    let isEmpty = bytes[close - 1] == UInt8(ascii: "/")
    let (start, length) = (position + 1, (isEmpty ? close - 1 : close) - position - 1)
    position = close + 1
    func named(_ name: StaticString) -> Bool { matches(name, at: start, length: length) }
    if named("string") { return isEmpty ? "" : text(closing: "</string>").flatMap(Self.decoded) }
    if named("dict") {
      return isEmpty ? [String: Any]() : nestedDictionary(depth: depth)
    }
    if named("array") { return isEmpty ? [Any]() : array(depth: depth) }
    if named("true") || named("false") { return isEmpty ? named("true") : nil }
    // Foundation refuses the other empty elements (`<data/>` too).
    guard !isEmpty else { return nil }
    if named("data") { return text(closing: "</data>").flatMap(Self.data) }
    if named("integer") { return text(closing: "</integer>").flatMap(Self.integer) }
    if named("real") { return text(closing: "</real>").flatMap(Self.real) }
    if named("date") { return text(closing: "</date>").flatMap(Self.date) }
    return nil
  }

  /// A nested dictionary whose `<dict>` was just read: a `[String: Any]`, or — when two of its
  /// keys are equal as `String`s (canonical equivalence) but differ in their Unicode scalars — a
  /// `[PropertyListKey: Any]`, which holds both, as the file, CoreFoundation and python's
  /// `plistlib` do (the entries read so far move to it, and the others are read into it; nil
  /// for a key held twice exactly: Foundation reads that one).
  private mutating func nestedDictionary(depth: Int) -> Any? {
    var dictionary: [String: Any] = [:]
    while true {
      skipSpace()
      if consume("</dict>") { return dictionary }
      guard let (key, value) = entry(depth: depth) else { return nil }
      guard let first = dictionary.updateValue(value, forKey: key) else { continue }
      // The dictionary kept the key met first; told apart from this one by their scalars.
      let earlier = PropertyListKey(dictionary.keys[dictionary.index(forKey: key)!])
      guard earlier != PropertyListKey(key) else { return nil }
      var exact = [PropertyListKey: Any](exactKeys: dictionary)
      exact[earlier] = first
      exact[PropertyListKey(key)] = value
      return entries(depth: depth, into: exact)
    }
  }

  /// The key and value of the next entry of a dictionary at `depth`; nil outside the plain form.
  private mutating func entry(depth: Int) -> (key: String, value: Any)? {
    guard consume("<key>"), let key = text(closing: "</key>").flatMap(Self.decoded) else {
      return nil
    }
    skipSpace()
    return value(depth: depth + 1).map { (key, $0) }
  }

  /// The entries of the dictionary whose `<dict>` was just read, added by exact key to
  /// `dictionary` (the entries read before them); nil when a key is held twice, or the text is
  /// not in the plain form: Foundation reads that one.
  private mutating func entries(depth: Int, into dictionary: consuming [PropertyListKey: Any])
    -> [PropertyListKey: Any]?
  {
    while true {
      skipSpace()
      if consume("</dict>") { return dictionary }
      guard let (key, value) = entry(depth: depth),
        dictionary.updateValue(value, forKey: PropertyListKey(key)) == nil
      else { return nil }
    }
  }

  private mutating func array(depth: Int) -> [Any]? {
    var array: [Any] = []
    while true {
      skipSpace()
      if consume("</array>") { return array }
      guard let value = value(depth: depth + 1) else { return nil }
      array.append(value)
    }
  }

  /// The raw text up to `closing`, which must follow it; moves past `closing`.
  private mutating func text(closing: StaticString) -> UnsafeRawBufferPointer? {
    guard let end = find(UInt8(ascii: "<")) else { return nil }
    let text = UnsafeRawBufferPointer(rebasing: bytes[position..<end])
    position = end
    return consume(closing) ? text : nil
  }

  /// The text of a `<key>` or `<string>`, with XML's five entities and character references
  /// replaced; nil for a carriage return (a parser translates line ends), another entity or
  /// invalid UTF-8.
  private static func decoded(_ text: UnsafeRawBufferPointer) -> String? {
    guard memchr(text.baseAddress!, 0x0D, text.count) == nil else { return nil }
    guard memchr(text.baseAddress!, Int32(UInt8(ascii: "&")), text.count) != nil else {
      return string(text)
    }
    var output: [UInt8] = []
    output.reserveCapacity(text.count)
    var index = 0
    while index < text.count {
      guard text[index] == UInt8(ascii: "&") else {
        output.append(text[index])
        index += 1
        continue
      }
      guard let semicolon = text[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")),
        let scalar = XMLScalarText.character(
          ofEntity: String(decoding: text[(index + 1)..<semicolon], as: UTF8.self))
      else { return nil }
      output.append(contentsOf: String(scalar).utf8)
      index = semicolon + 1
    }
    return output.withUnsafeBytes { string($0) }
  }

  /// A decimal integer: `Int` when it fits, else `UInt64` (the validator bounds the range).
  private static func integer(_ text: UnsafeRawBufferPointer) -> Any? {
    guard
      text.allSatisfy({
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
          || $0 == UInt8(ascii: "+")
      })
    else { return nil }
    let digits = String(decoding: text, as: UTF8.self)
    if let integer = Int(digits) { return integer }
    return digits.hasPrefix("-") ? nil : UInt64(digits)
  }

  /// A decimal real (`nan`, `inf` and white space are left to Foundation).
  private static func real(_ text: UnsafeRawBufferPointer) -> Any? {
    guard
      text.allSatisfy({
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
          || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e")
      })
    else { return nil }
    return Double(String(decoding: text, as: UTF8.self))
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` naming a real day and time, as Foundation writes dates.
  private static func date(_ text: UnsafeRawBufferPointer) -> Any? {
    let string = String(decoding: text, as: UTF8.self)
    guard text.count == 20, XMLScalarText.isDate(string) else { return nil }
    func number(_ start: Int, _ count: Int) -> Int {
      text[start..<start + count].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    // Days since 1970-01-01 of a Gregorian date (Howard Hinnant's `days_from_civil`).
    let (month, day) = (number(5, 2), number(8, 2))
    let year = number(0, 4) - (month <= 2 ? 1 : 0)
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + number(11, 2) * 3_600 + number(14, 2) * 60 + number(17, 2)
    return Date(timeIntervalSince1970: Double(seconds))
  }

  /// Base64 with white space anywhere (the validator refuses any other text in `<data>`).
  private static func data(_ text: UnsafeRawBufferPointer) -> Any? {
    guard memchr(text.baseAddress!, Int32(UInt8(ascii: "&")), text.count) == nil else { return nil }
    // Foundation's decoder gives nil for white space alone, which its parser reads as no bytes.
    guard text.contains(where: { !XMLPropertyListScanner.isSpace($0) }) else { return Data() }
    // The text's copy in huge pages (a new block of 67 MB took 40 ms of page faults here).
    return Data(base64Encoded: SystemMemory.data(copying: text), options: .ignoreUnknownCharacters)
  }
}
