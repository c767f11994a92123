import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// An XML file another writer changed is compared entry by entry, as a binary one is: only the
/// entries whose text changed are parsed, each alone, and the values are the whole parse's.
@Suite struct XMLPropertyListEntriesTests {
  static var values: [PropertyListKey: Any] {
    var values: [PropertyListKey: Any] = [
      "unicode ключ 🎹": "Grüße & <markup> \"quoted\"",
      "empty": "",
      "date": Date(timeIntervalSinceReferenceDate: 694_900_766),
      "data": Data([0, 1, 2, 255]),
      "nested": ["a": [1, 2.5, ["b": Data([1, 2]), "t": true]] as [Any], "e": [String: Any]()],
      "list": ["x", 3, false] as [Any],
      "big": UInt64.max,
    ]
    for index in 0..<300 { values["key \(index)"] = "value \(index)" }
    return values
  }

  private static func xml(_ values: [PropertyListKey: Any]) throws -> Data {
    try PropertyListSerialization.data(
      fromPropertyList: values.stringKeyed, format: .xml, options: 0)
  }

  /// The whole parse of `data`, canonical.
  private static func parsed(_ data: Data) throws -> [PropertyListKey: Any] {
    let root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    return [PropertyListKey: Any](
      exactKeys: try #require(PropertyListValue.normalized(root) as? [String: Any]))
  }

  /// `before`'s values with `after`'s changes found entry by entry (nil: parsed whole).
  private static func incremental(_ before: Data, _ after: Data) throws -> (
    values: [PropertyListKey: Any], changedKeys: Set<PropertyListKey>
  )? {
    let old = try #require(XMLPropertyListEntries.entries(of: before))
    var values = try parsed(before)
    guard let changes = try XMLPropertyListEntries.changes(of: after, since: old, previous: values)
    else { return nil }
    for key in changes.removed { values[key] = nil }
    values.merge(changes.set) { $1 }
    return (values, Set(changes.removed).union(changes.set.keys))
  }

  @Test func anotherWritersChangesAreFoundEntryByEntry() throws {
    let before = try Self.xml(Self.values)
    var after = Self.values
    after["key 7"] = "seven"
    after["nested"] = ["a": [1, 2.5, ["b": Data([1, 3]), "t": true]] as [Any]]
    after["key 8"] = nil
    after["added"] = 42
    let (values, changedKeys) = try #require(try Self.incremental(before, try Self.xml(after)))
    #expect(propertyListValuesEqual(values, after))
    // "added" moved every entry after it by one place: they are matched by key.
    #expect(changedKeys == ["key 7", "nested", "key 8", "added"])
  }

  /// The re-read's scan checks every key and string as it compares the entries (one pass, no
  /// separate validation): a key that is not UTF-8 refuses the file, naming its line.
  @Test func aChangedKeyThatIsNotUTF8IsRefusedByTheScan() throws {
    let before = try Self.xml(Self.values)
    var bytes = [UInt8](before)
    let key = Array("<key>key 7</key>".utf8)
    let start = try #require(
      bytes.indices.first { bytes[$0..<min($0 + key.count, bytes.count)].elementsEqual(key) })
    bytes[start + 5] = 0xFF
    #expect(throws: PropertyListRejection.self) { try Self.incremental(before, Data(bytes)) }
    // Unchanged keys are the old version's: the re-read of equal text makes none of them.
    let same = try #require(try Self.incremental(before, before))
    #expect(same.changedKeys.isEmpty)
  }

  @Test func aHandEditedEntryIsTheOnlyOneParsed() throws {
    let before = try Self.xml(Self.values)
    let text = String(decoding: before, as: UTF8.self)
    let edited = text.replacingOccurrences(
      of: "<key>key 12</key>\n\t<string>value 12</string>",
      with: "<key>key 12</key>   <string>edited by hand</string>")
    #expect(edited != text)
    let (values, changedKeys) = try #require(try Self.incremental(before, Data(edited.utf8)))
    #expect(changedKeys == ["key 12"])
    #expect(values["key 12"] as? String == "edited by hand")
    #expect(propertyListValuesEqual(values, try Self.parsed(Data(edited.utf8))))
  }

  /// Forms the scan leaves to the whole parse, each still a file Foundation reads.
  static let unplainForms: [(String, String)] = [
    ("a comment", "<key>a</key><!-- note --><string>x</string>"),
    ("CDATA in a key", "<key><![CDATA[a]]></key><string>x</string>"),
    ("a processing instruction", "<key>a</key><string>x</string><?pi?><key>b</key><true/>"),
    ("an entity in a key", "<key>a&amp;b</key><string>x</string>"),
    ("a key held twice", "<key>a</key><string>x</string><key>a</key><string>y</string>"),
    ("text between entries", "<key>a</key><string>x</string> stray <key>b</key><true/>"),
  ]

  @Test(arguments: unplainForms)
  func otherFormsAreParsedWhole(form: (name: String, entries: String)) throws {
    let data = Data(
      (#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"#
        + form.entries + "</dict></plist>").utf8)
    #expect(XMLPropertyListEntries.entries(of: data) == nil, "\(form.name)")
  }

  /// Markup inside a value element (a CDATA section, a comment in an array) leaves the entries'
  /// places known: an edit replaces the value element whole.
  @Test func markupInsideAValueKeepsTheEntries() throws {
    let data = Data(
      (#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"#
        + "<key>a</key><string><![CDATA[x<y]]></string>"
        + "<key>b</key><array><!-- c --><true/></array></dict></plist>").utf8)
    let entries = try #require(XMLPropertyListEntries.entries(of: data))
    #expect(entries.keys == ["a", "b"])
  }

  @Test func anotherEncodingOrAnInternalSubsetIsParsedWhole() {
    let latin1 = Data(
      #"<?xml version="1.0" encoding="ISO-8859-1"?><plist version="1.0"><dict><key>a</key><true/></dict></plist>"#
        .utf8)
    let subset = Data(
      #"<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY e "x">]><plist version="1.0"><dict><key>a</key><string>&e;</string></dict></plist>"#
        .utf8)
    #expect(XMLPropertyListEntries.entries(of: latin1) == nil)
    #expect(XMLPropertyListEntries.entries(of: subset) == nil)
  }

  /// The check that makes a file with a key held twice be parsed whole.
  @Test func keysHeldTwiceAreFound() {
    let keys = (0..<50_000).map { PropertyListKey("key \($0)") }
    let long: PropertyListKey = "ключ 🎹 a key longer than fifteen bytes"
    #expect(PropertyListEntries.areDistinct(keys))
    #expect(PropertyListEntries.areDistinct([]))
    #expect(PropertyListEntries.areDistinct([""]))
    #expect(!PropertyListEntries.areDistinct(["", ""]))
    #expect(!PropertyListEntries.areDistinct(keys + ["key 0"]))
    #expect(!PropertyListEntries.areDistinct(["key 49999"] + keys))
    #expect(!PropertyListEntries.areDistinct([long, "x", long]))
    // Keys equal as `String`s (canonical equivalence) but not in their scalars are two keys.
    #expect(PropertyListEntries.areDistinct(["\u{E9}", "e\u{301}"]))
  }

  /// Mutated files: whenever the entry-by-entry read gives values, they are the whole parse's,
  /// and nothing crashes or hangs.
  @Test func mutatedFilesGiveTheWholeParsesValuesOrNone() throws {
    var generator = SeededGenerator(seed: 2026)
    let before = try Self.xml(Self.values)
    let old = try #require(XMLPropertyListEntries.entries(of: before))
    let previous = try Self.parsed(before)
    var (agreed, refused, wholeOnly) = (0, 0, 0)
    for _ in 0..<1000 {
      let after = Data(generator.mutated([UInt8](before), inserting: "<>/&\n x"))
      let whole = try? Self.parsed(after)
      guard
        let changes = try? XMLPropertyListEntries.changes(of: after, since: old, previous: previous)
      else {
        if whole != nil { wholeOnly += 1 } else { refused += 1 }
        continue
      }
      var values = previous
      for key in changes.removed { values[key] = nil }
      values.merge(changes.set) { $1 }
      let expected = try #require(whole, "the entries read a file the whole parse refuses")
      #expect(propertyListValuesEqual(values, expected))
      agreed += 1
    }
    #expect(agreed + refused + wholeOnly == 1000)
    #expect(agreed > 0)
  }
}
