import Foundation

/// Writes canonical property-list values (see ``PropertyListDocument``) as an XML property list,
/// laid out as Foundation's `PropertyListEncoder` and CoreFoundation's writer lay it out, with
/// the keys of every dictionary, nested ones included, in CoreFoundation's order.
///
/// CoreFoundation (`_CFAppendXML0` in `CFPropertyList.c`) sorts each dictionary's keys with
/// `CFStringCompare` and no options: by their UTF-16 code units, so a file's text depends only on
/// its values. Foundation's encoder here sorts by `String`'s comparison instead, which orders
/// other scripts differently and cannot hold two keys that differ only in Unicode
/// normalization; both are written here, in that order (`e` U+0301 before `é` U+00E9).
///
/// The text is Foundation's otherwise: a tab per level; `&`, `<` and `>` escaped, and a carriage
/// return written as `&#13;` (a raw one reads back as a line feed in XML readers other than
/// Apple's: XML 1.0 §2.11); whole reals without `.0`, infinities as `+infinity` and `-infinity`;
/// dates in whole seconds, in CoreFoundation's calendar (``PropertyListCalendar``); Base64 lines of 76 characters less 8 for each tab before them (at
/// most 8 tabs). It is measured first and written into one block of that size, so memory that
/// runs out refuses the write instead of stopping the program.
enum XMLPropertyListWriter {
  /// The text of a property list whose root is the dictionary `values`.
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when a value is not a property-list value, a
  ///   string holds NUL (XML cannot hold it; Foundation refuses it too), a date is outside the
  ///   years 0–999999 or not finite, or memory runs out.
  static func data(of values: [PropertyListKey: Any]) throws(PropertyListEncodingFailure) -> Data {
    // The first pass measures the text and sorts each dictionary once; the second writes it.
    var measure = Pass(base: nil, sorted: [])
    try measure.document(values)
    let count = measure.output.count
    let byteCount = max(count, 1)
    guard let block = SystemMemory.allocate(byteCount: byteCount) else {
      throw PropertyListEncodingFailure(reason: "out of memory for \(count) bytes of text")
    }
    var write = Pass(base: block, sorted: measure.sorted)
    do {
      try write.document(values)
    } catch {
      SystemMemory.deallocate(block, byteCount: byteCount)
      throw error
    }
    return SystemMemory.data(taking: block, count: count, byteCount: byteCount)
  }

  /// Bytes written at a base address, or only counted when there is none.
  private struct Output {
    let base: UnsafeMutableRawPointer?
    var count = 0

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
      if let base, let source = bytes.baseAddress {
        (base + count).copyMemory(from: source, byteCount: bytes.count)
      }
      count += bytes.count
    }

    mutating func append(_ text: StaticString) {
      append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: String) {
      var text = text
      text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ byte: UInt8, times: Int = 1) {
      if let base {
        for offset in 0..<times {
          base.storeBytes(of: byte, toByteOffset: count + offset, as: UInt8.self)
        }
      }
      count += times
    }
  }

  /// One walk over the values. The measuring walk (no base) sorts each dictionary's entries in
  /// the order it meets them; the writing walk takes them in the same order.
  private struct Pass {
    var output: Output
    var sorted: [[(key: String, value: Any)]]
    private let measuring: Bool
    private var nextSorted = 0

    init(base: UnsafeMutableRawPointer?, sorted: [[(key: String, value: Any)]]) {
      output = Output(base: base)
      self.sorted = sorted
      measuring = base == nil
    }

    mutating func document(_ values: [PropertyListKey: Any]) throws(PropertyListEncodingFailure) {
      output.append(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """)
      try dictionary(entries { values.map { ($0.key.string, $0.value) } }, depth: 0)
      output.append("</plist>\n")
    }

    /// The entries of a dictionary in CoreFoundation's order: sorted when measuring, else the
    /// next of those the measuring walk sorted.
    private mutating func entries(_ unsorted: () -> [(key: String, value: Any)])
      -> [(key: String, value: Any)]
    {
      if measuring {
        let unsorted = unsorted()
        let entries = PropertyListKey.utf16Order(of: unsorted.map(\.key)).map { unsorted[$0] }
        sorted.append(entries)
        return entries
      }
      nextSorted += 1
      return sorted[nextSorted - 1]
    }

    /// One value element at `depth` tabs, and its line end.
    private mutating func value(_ value: Any, depth: Int) throws(PropertyListEncodingFailure) {
      output.append(UInt8(ascii: "\t"), times: depth)
      try element(of: value, depth: depth)
    }

    /// The element of `value` (after its tabs), and its line end.
    private mutating func element(of value: Any, depth: Int) throws(PropertyListEncodingFailure) {
      let kind = type(of: value)
      if kind == String.self, let string = value as? String {
        output.append("<string>")
        try escaped(string)
        output.append("</string>\n")
      } else if kind == Int.self, let integer = value as? Int {
        element("integer", integer.description)
      } else if kind == Bool.self, let boolean = value as? Bool {
        output.append(boolean ? "<true/>\n" : "<false/>\n")
      } else if kind == Double.self, let real = value as? Double {
        element("real", Self.text(of: real))
      } else if kind == Date.self, let date = value as? Date {
        element("date", try Self.text(of: date))
      } else if kind == Data.self, let data = value as? Data {
        base64(data, depth: depth)
      } else if kind == UInt64.self, let unsigned = value as? UInt64 {
        element("integer", unsigned.description)
      } else if let array = value as? [Any] {
        try self.array(array, depth: depth)
      } else if let dictionary = value as? [String: Any] {
        try self.dictionary(entries { dictionary.map { ($0.key, $0.value) } }, depth: depth)
      } else if let dictionary = value as? [PropertyListKey: Any] {
        try self.dictionary(entries { dictionary.map { ($0.key.string, $0.value) } }, depth: depth)
      } else if let canonical = PropertyListValue.normalized(value), type(of: canonical) != kind {
        try element(of: canonical, depth: depth)
      } else {
        throw PropertyListEncodingFailure(reason: "\(kind) is not a property-list value")
      }
    }

    private mutating func element(_ name: StaticString, _ text: String) {
      output.append("<")
      output.append(name)
      output.append(">")
      output.append(text)
      output.append("</")
      output.append(name)
      output.append(">\n")
    }

    private mutating func dictionary(_ entries: [(key: String, value: Any)], depth: Int)
      throws(PropertyListEncodingFailure)
    {
      guard !entries.isEmpty else { return output.append("<dict/>\n") }
      output.append("<dict>\n")
      for (key, element) in entries {
        output.append(UInt8(ascii: "\t"), times: depth + 1)
        output.append("<key>")
        try escaped(key)
        output.append("</key>\n")
        try value(element, depth: depth + 1)
      }
      output.append(UInt8(ascii: "\t"), times: depth)
      output.append("</dict>\n")
    }

    private mutating func array(_ elements: [Any], depth: Int) throws(PropertyListEncodingFailure) {
      guard !elements.isEmpty else { return output.append("<array/>\n") }
      output.append("<array>\n")
      for element in elements { try value(element, depth: depth + 1) }
      output.append(UInt8(ascii: "\t"), times: depth)
      output.append("</array>\n")
    }

    /// `text` with `&`, `<`, `>` and a carriage return written as references.
    private mutating func escaped(_ text: String) throws(PropertyListEncodingFailure) {
      var text = text
      let hasNull = text.withUTF8 { bytes in
        var start = 0
        for (index, byte) in bytes.enumerated() {
          let reference: StaticString
          switch byte {
          case UInt8(ascii: "&"): reference = "&amp;"
          case UInt8(ascii: "<"): reference = "&lt;"
          case UInt8(ascii: ">"): reference = "&gt;"
          case 0x0D: reference = "&#13;"
          case 0: return true
          default: continue
          }
          output.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
          output.append(reference)
          start = index + 1
        }
        output.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
        return false
      }
      if hasNull {
        throw PropertyListEncodingFailure(reason: "a string holds NUL, which XML cannot hold")
      }
    }

    /// `<data>`, its Base64 lines (76 characters less 8 for each tab before them, at most 8),
    /// and `</data>` at `depth`, encoded straight into the text (``Base64Text``).
    private mutating func base64(_ data: Data, depth: Int) {
      output.append("<data>\n")
      let tabs = min(depth, 8)
      let lineLength = 76 - 8 * tabs
      let count = Base64Text.byteCount(
        encoding: data.count, lineLength: lineLength, indentation: tabs)
      if let base = output.base {
        data.withUnsafeBytes {
          Base64Text.encode(
            $0, lineLength: lineLength, indentation: Self.tabs(tabs), into: base + output.count)
        }
      }
      output.count += count
      output.append(UInt8(ascii: "\t"), times: depth)
      output.append("</data>\n")
    }

    /// `count` tabs (at most 8).
    private static func tabs(_ count: Int) -> UnsafeRawBufferPointer {
      let tabs: StaticString = "\t\t\t\t\t\t\t\t"
      return UnsafeRawBufferPointer(start: tabs.utf8Start, count: count)
    }

    /// A real as Foundation writes it: its shortest text without a whole number's `.0`, and
    /// `+infinity` / `-infinity`.
    private static func text(of real: Double) -> String {
      if real.isInfinite { return real > 0 ? "+infinity" : "-infinity" }
      let text = real.description
      return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A date in whole seconds (the earlier second), in CoreFoundation's calendar
    /// (``PropertyListCalendar``).
    ///
    /// - Throws: ``PropertyListEncodingFailure`` for a date outside the years 0–999999, which the
    ///   reader's text does not hold, or not finite (CoreFoundation writes `24:60` for it).
    private static func text(of date: Date) throws(PropertyListEncodingFailure) -> String {
      let seconds = date.timeIntervalSinceReferenceDate
      guard let fields = PropertyListCalendar.fields(of: seconds) else {
        throw PropertyListEncodingFailure(
          reason: "the date \(PropertyListDateText.text(of: date)) is outside the years "
            + "0–999999 an XML property list's date holds")
      }
      return PropertyListCalendar.text(of: fields)
    }
  }
}
