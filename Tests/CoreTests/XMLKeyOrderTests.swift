import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// The XML writer puts the keys of every dictionary, nested ones included, in CoreFoundation's
/// order (`CFStringCompare` without options in `_CFAppendXML0`: by UTF-16 code units), so a
/// file's text depends only on its values. Nested keys that differ only in Unicode normalization
/// went through placeholders, and which of them came where depended on the dictionary's hash
/// order; other scripts were in `String`'s order.
@Suite struct XMLKeyOrderTests {
  /// Keys in CoreFoundation's order: ASCII by byte, `e` U+0301 before `é` U+00E9, an emoji
  /// (surrogates D83D DE00) before U+FF5E.
  private static let keys = [
    "Beta", "_", "alpha", "e\u{301}", "e\u{301}x", "mid", "zeta", "\u{E9}", "\u{1F600}",
    "\u{FF5E}",
  ]

  private static func exact(_ keys: [String], _ value: (Int) -> Any) -> [PropertyListKey: Any] {
    var result: [PropertyListKey: Any] = [:]
    for (index, key) in keys.enumerated() { result[PropertyListKey(key)] = value(index) }
    return result
  }

  private static func keyLines(_ keys: [String], depth: Int, _ value: (Int) -> String) -> String {
    let tabs = String(repeating: "\t", count: depth)
    return keys.enumerated().map { "\(tabs)<key>\($1)</key>\n\(tabs)\(value($0))\n" }.joined()
  }

  @Test func everyDictionarysKeysAreInCoreFoundationsOrder() throws {
    let expected =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>list</key>
      \t<array>
      \t\t<dict>
      \(Self.keyLines(["a", "b"], depth: 3) { "<integer>\($0)</integer>" })\t\t</dict>
      \t</array>
      \t<key>nested</key>
      \t<dict>
      \(Self.keyLines(Self.keys, depth: 2) { "<integer>\($0)</integer>" })\t</dict>
      \t<key>plain</key>
      \t<dict>
      \t\t<key>x</key>
      \t\t<dict>
      \(Self.keyLines(["a &amp; b", "\u{1F600}", "\u{FF5E}"], depth: 3) { _ in "<true/>" })\t\t</dict>
      \t</dict>
      \(Self.keyLines(["zz", "\u{E9}"], depth: 1) { "<string>\($0)</string>" })</dict>
      </plist>

      """
    // Several dictionaries of the same keys: each has its own hash order.
    for round in 0..<20 {
      var top = Self.exact(["\u{E9}", "zz"]) { _ in "" }
      top[PropertyListKey("\u{E9}")] = "1"
      top["zz"] = "0"
      top["nested"] = Self.exact(Self.keys.shuffled()) { _ in 0 }.merging(
        Self.exact(Self.keys) { $0 }
      ) { $1 }
      top["plain"] = ["x": ["\u{FF5E}": true, "\u{1F600}": true, "a & b": true] as [String: Any]]
      top["list"] = [["b": 1, "a": 0] as [String: Any]]
      let text = try PropertyListEncoding.data(of: PropertyListDocument(values: top, format: .xml))
      #expect(String(decoding: text, as: UTF8.self) == expected, "round \(round)")
    }
  }

  /// Foundation's own serializer (CoreFoundation) orders a dictionary of `String` keys the same.
  @Test func foundationsSerializerOrdersKeysTheSame() throws {
    let keys = Self.keys.filter { $0 != "\u{E9}" }
    let values = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["k": values], format: .xml, options: 0)
    let written = String(decoding: data, as: UTF8.self).split(separator: "\n")
      .filter { $0.contains("<key>") }.map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(written == ["<key>k</key>"] + keys.map { "<key>\($0)</key>" })
  }

  /// The writer's order, found in UTF-8 bytes (``PropertyListKey/utf16Order(of:)`` and
  /// ``PropertyListKey/utf16Precedes(_:_:)``), is UTF-16 code-unit order for keys of every
  /// plane: random keys of characters below U+0080, U+0800…U+D7FF, U+E000…U+FFFF and above
  /// U+FFFF, many sharing their first 16 bytes or more.
  @Test func theOrderFoundInUTF8IsTheOrderOfUTF16CodeUnits() {
    var random = SeededGenerator(seed: 42)
    let scalars: [ClosedRange<UInt32>] = [
      0x20...0x7E, 0xC0...0x17F, 0x800...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF,
    ]
    let prefixes = ["", "same-prefix-of-20-bytes", "\u{FF5E}\u{1F600}\u{E000}-shared-"]
    var keys = Set<String>()
    while keys.count < 3_000 {
      let length = Int.random(in: 0...4, using: &random)
      let tail = (0..<length).map { _ -> Character in
        let range = scalars.randomElement(using: &random)!
        return Character(Unicode.Scalar(UInt32.random(in: range, using: &random))!)
      }
      keys.insert(prefixes.randomElement(using: &random)! + String(tail))
    }
    let list = Array(keys)
    let byUTF16 = list.indices.sorted { list[$0].utf16.lexicographicallyPrecedes(list[$1].utf16) }
    #expect(PropertyListKey.utf16Order(of: list) == byUTF16)
    for _ in 0..<20_000 {
      let (a, b) = (list.randomElement(using: &random)!, list.randomElement(using: &random)!)
      #expect(PropertyListKey.utf16Precedes(a, b) == a.utf16.lexicographicallyPrecedes(b.utf16))
    }
  }
}
