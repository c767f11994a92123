import Foundation

/// Scans an XML property list for what Foundation's parser would misread or recurse on without
/// bound (see ``PropertyListValidator``): the text of `<integer>`, `<real>`, `<date>` and
/// `<data>` elements, the nesting of `<array>` and `<dict>`, the number of elements, and text
/// after `</plist>`.
///
/// It is no XML parser: markup it does not understand is left for Foundation to refuse.
struct XMLPropertyListScanner {
  private let bytes: UnsafeRawBufferPointer
  private let limits: PropertyListLimits
  private var position = 0
  private var depth = 0
  private var elements = 0
  /// The file's element limit (``PropertyListLimits/maximumElements(inXMLFileOf:)``).
  private let maximumElements: Int

  init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) {
    self.bytes = bytes
    self.limits = limits
    maximumElements = limits.maximumElements(inXMLFileOf: bytes.count)
  }

  /// Whether `bytes` (UTF-8, optionally with a byte-order mark) start, after white space, with `<`.
  static func looksLikeXML(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: "<")
  }

  /// The UTF-8 form of text that starts with a UTF-16 byte-order mark; nil for other bytes.
  static func utf8(fromUTF16 bytes: UnsafeRawBufferPointer) -> Data? {
    guard bytes.count >= 2 else { return nil }
    let bigEndian: Bool
    switch (bytes[0], bytes[1]) {
    case (0xFE, 0xFF): bigEndian = true
    case (0xFF, 0xFE): bigEndian = false
    default: return nil
    }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    for index in stride(from: 2, to: bytes.count - 1, by: 2) {
      let (high, low) =
        bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
      units.append(UInt16(high) << 8 | UInt16(low))
    }
    return Data(String(decoding: units, as: UTF16.self).utf8)
  }

  /// Checks the whole document.
  ///
  /// - Throws: ``PropertyListRejection`` naming the element and its line.
  mutating func validate() throws(PropertyListRejection) {
    while let open = find(UInt8(ascii: "<"), from: position) {
      position = open
      if starts(with: "<?") {
        guard skip(past: "?>") else { return }
      } else if starts(with: "<!--") {
        guard skip(past: "-->") else { return }
      } else if starts(with: "<![CDATA[") {
        guard skip(past: "]]>") else { return }
      } else if starts(with: "<!") {
        guard skipDeclaration() else { return }
      } else if starts(with: "</") {
        let name = self.name(at: position + 2)
        if name.isContainer { depth -= 1 }
        guard let close = find(UInt8(ascii: ">"), from: position) else { return }
        position = close + 1
        if name == .plist {
          try checkNothingFollowsTheDocument()
          return
        }
      } else {
        guard try element() else { return }
      }
    }
  }

  /// Throws unless only white space, comments and processing instructions follow the root
  /// element's end (XML 1.0 allows nothing else there). Foundation's parser ignores whatever
  /// follows `</plist>`, so a file another program is rewriting in place (its new, shorter text
  /// written over the old, the old tail not yet cut off) would read as the new text, through the
  /// parser that merges keys differing only in Unicode normalization; refused, it is read again
  /// after a pause (``PropertyListFile/retryingHalfWritten(suspecting:_:)``), as python's
  /// plistlib refuses it ("junk after document element").
  private mutating func checkNothingFollowsTheDocument() throws(PropertyListRejection) {
    while position < bytes.count {
      if Self.isSpace(bytes[position]) {
        position += 1
      } else if starts(with: "<!--") {
        guard skip(past: "-->") else { break }
      } else if starts(with: "<?") {
        guard skip(past: "?>") else { break }
      } else {
        break
      }
    }
    guard position == bytes.count else {
      throw rejection("text follows </plist> (a file being written in place?)")
    }
  }

  /// Checks the start tag at ``position`` and, for a scalar element, its text; moves past the tag.
  ///
  /// - Returns: false when the tag is not closed (Foundation will refuse the file).
  private mutating func element() throws(PropertyListRejection) -> Bool {
    let name = self.name(at: position + 1)
    guard let close = find(UInt8(ascii: ">"), from: position) else { return false }
    let isEmpty = bytes[close - 1] == UInt8(ascii: "/")
    elements += 1
    guard elements <= maximumElements else {
      throw rejection("it holds more than \(maximumElements) elements")
    }
    position = close + 1
    guard !isEmpty else { return true }
    switch name {
    case .array, .dict:
      depth += 1
      guard depth <= limits.maximumDepth else {
        throw rejection(
          "arrays and dictionaries are nested deeper than \(limits.maximumDepth) levels")
      }
    case .integer, .real, .date, .data:
      let end = find(UInt8(ascii: "<"), from: position) ?? bytes.count
      if name == .data {
        // Foundation decodes no entity in <data>: it skips `&`, `#` and `;` as it skips white
        // space, so `AA&#69;C` would be read as other bytes than the text says. Refused.
        guard XMLScalarText.isBase64(UnsafeRawBufferPointer(rebasing: bytes[position..<end])) else {
          throw rejection("<data> is not Base64")
        }
        position = end
        return true
      }
      let text = Self.decodingEntities(String(decoding: bytes[position..<end], as: UTF8.self))
      if let problem = XMLScalarText.problem(in: text, element: name.rawValue) {
        throw rejection("<\(name.rawValue)> \(problem)")
      }
      position = end
    case .plist, .other:
      break
    }
    return true
  }

  /// The elements whose text or nesting is checked; every other name is `other`.
  private enum ElementName: String {
    case array, dict, integer, real, date, data, plist, other

    var isContainer: Bool { self == .array || self == .dict }
  }

  /// The name of the tag starting at `index` (its letters), compared with `memcmp`: making a
  /// `String` of every tag's name was a third of the validation of a 10,000-key suite.
  private func name(at index: Int) -> ElementName {
    var end = index
    while end < bytes.count, Self.isLetter(bytes[end]) { end += 1 }
    func matches(_ literal: StaticString) -> Bool {
      end - index == literal.utf8CodeUnitCount
        && memcmp(bytes.baseAddress! + index, literal.utf8Start, end - index) == 0
    }
    switch end - index {
    case 4:
      if matches("dict") { return .dict }
      if matches("real") { return .real }
      if matches("date") { return .date }
      return matches("data") ? .data : .other
    case 5:
      if matches("array") { return .array }
      return matches("plist") ? .plist : .other
    case 7: return matches("integer") ? .integer : .other
    default: return .other
    }
  }

  /// Skips a `<!DOCTYPE …>` declaration, including an internal subset in brackets.
  private mutating func skipDeclaration() -> Bool {
    var index = position + 2
    var inSubset = false
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "["): inSubset = true
      case UInt8(ascii: "]"): inSubset = false
      case UInt8(ascii: ">") where !inSubset:
        position = index + 1
        return true
      default: break
      }
      index += 1
    }
    return false
  }

  private mutating func skip(past terminator: StaticString) -> Bool {
    let pattern = UnsafeRawBufferPointer(
      start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
    var index = position + 1
    while let candidate = find(pattern[0], from: index) {
      if bytes.count - candidate >= pattern.count,
        memcmp(bytes.baseAddress! + candidate, pattern.baseAddress!, pattern.count) == 0
      {
        position = candidate + pattern.count
        return true
      }
      index = candidate + 1
    }
    return false
  }

  /// Whether the text at ``position`` starts with `prefix` (compared with `memcmp`: a generic
  /// `starts(with:)` over slices was most of the validation of a 1,000,000-key file).
  private func starts(with prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    return bytes.count - position >= count
      && memcmp(bytes.baseAddress! + position, prefix.utf8Start, count) == 0
  }

  private func find(_ byte: UInt8, from index: Int) -> Int? {
    guard index < bytes.count, let base = bytes.baseAddress else { return nil }
    guard let found = memchr(base + index, Int32(byte), bytes.count - index) else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
  }

  private func rejection(_ reason: String) -> PropertyListRejection {
    let line = 1 + bytes[..<min(position, bytes.count)].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    return PropertyListRejection(reason: "XML property list, line \(line): " + reason)
  }

  /// `text` with XML's predefined entities and character references replaced.
  private static func decodingEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var result = ""
    var rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      result += rest[..<ampersand]
      guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
      let entity = rest[rest.index(after: ampersand)..<semicolon]
      let replacement = XMLScalarText.character(ofEntity: entity).map { String($0) }
      result += replacement ?? String(rest[ampersand...semicolon])
      rest = rest[rest.index(after: semicolon)...]
    }
    return result + rest
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }
}
