import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A flush of an XML suite writes only the changed entries' text: the file still parses to
/// exactly the values written, and every other entry keeps its bytes.
@Suite struct XMLPropertyListEditTests {
  private static func parsed(_ data: Data) throws -> [String: Any] {
    let root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    return try #require(PropertyListValue.normalized(root) as? [String: Any])
  }

  @Test func setRemoveAndAddKeepTheOtherEntriesText() throws {
    let handEdited = "<key>by hand</key>   <string>spaced  out</string>"
    let text = Data(
      (#"""
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      	<key>a</key>
      	<integer>1</integer>
      	\#(handEdited)
      	<key>b</key>
      	<array>
      		<string>x</string>
      	</array>
      	<key>c</key>
      	<true/>
      </dict>
      </plist>

      """#).utf8)
    let changes: [PropertyListKey: PropertyListChange] = [
      "a": .set(["nested": [1, 2.5] as [Any], "d": Date(timeIntervalSince1970: 0)]),
      "b": .remove, "new key ✓": .set("Grüße & <tags>"), "absent": .remove,
    ]
    let edited = try #require(try XMLPropertyListEdit.applying(changes, to: text)).text
    var expected = try Self.parsed(text)
    expected["a"] = ["nested": [1, 2.5] as [Any], "d": Date(timeIntervalSince1970: 0)]
    expected["b"] = nil
    expected["new key ✓"] = "Grüße & <tags>"
    #expect(propertyListValuesEqual(try Self.parsed(edited), expected))
    let result = String(decoding: edited, as: UTF8.self)
    #expect(result.contains(handEdited))
    #expect(result.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
    #expect(
      result.contains("<key>new key ✓</key>\n\t<string>Grüße &amp; &lt;tags&gt;</string>\n</dict>"))
  }

  /// Issue 23: data values are written here, not by Foundation's encoder (29 instructions per
  /// byte): the text is Foundation's byte for byte, at every line length, added or replaced.
  @Test(arguments: [1, 2, 3, 50, 51, 52, 102, 103, 5_000])
  func dataIsWrittenAsFoundationWritesIt(byteCount: Int) throws {
    let data = Data((0..<byteCount).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let before = try PropertyListEncoding.data(
      of: PropertyListDocument(values: ["a": Data([1]), "b": "x"]))
    let expected = try PropertyListEncoding.data(
      of: PropertyListDocument(values: ["a": data, "b": "x", "c": data]))
    let edited = try XMLPropertyListEdit.applying(["a": .set(data), "c": .set(data)], to: before)?
      .text
    #expect(edited == expected)
  }

  @Test func textNotInThePlainFormIsLeftToTheWholeEncoder() throws {
    let commented = Data(
      #"<?xml version="1.0"?><plist version="1.0"><dict><!-- c --><key>a</key><true/></dict></plist>"#
        .utf8)
    #expect(try XMLPropertyListEdit.applying(["a": .set(false)], to: commented) == nil)
    let twice = Data(
      #"<plist version="1.0"><dict><key>a</key><true/><key>a</key><false/></dict></plist>"#.utf8)
    #expect(try XMLPropertyListEdit.applying(["a": .remove], to: twice) == nil)
    // A new key with an entity: its text is not scanned back, so the whole document is encoded.
    let plain = Data(#"<plist version="1.0"><dict><key>a</key><true/></dict></plist>"#.utf8)
    #expect(try XMLPropertyListEdit.applying(["b & c": .set(1)], to: plain) == nil)
  }

  /// A text whose block cannot be had is a failure of the flush, which leaves the file as it
  /// was: an empty text had been written over the whole suite.
  @Test func aBlockThatCannotBeHadIsAFailureNotAnEmptyText() {
    #expect(
      throws: PropertyListEncodingFailure(
        reason: "out of memory for \(Int.max / 2) bytes of text")
    ) { _ = try XMLPropertyListEdit.output(capacity: Int.max / 2) }
  }

  /// 300 rounds of random changes to one file, each checked against the values expected and
  /// the entries (and their places) a scan of the text finds; each round edits at the places
  /// the last round's edit gave, and writes what an edit after a scan writes.
  @Test func randomChangesAlwaysParseToTheValuesWritten() throws {
    var generator = SeededGenerator(seed: 23)
    // XML keeps whole seconds of a date (as Foundation writes it): the pool's date has none.
    let pool: [Any] = [
      "", "plain", "a & b < c > d \"e\" 'f'", "Grüße 🎹", 0, -7, Int.max, 2.5, true, false,
      Date(timeIntervalSinceReferenceDate: 86_400), Data([0, 255]), [Any](), [String: Any](),
      ["x", 1, ["y": [true]]] as [Any], ["k & l": ["m": Data([1])]],
    ]
    var expected: [PropertyListKey: Any] = ["seed": 1]
    var text = try PropertyListEncoding.data(
      of: PropertyListDocument(values: expected, format: .xml))
    var known: PropertyListEntries?
    for _ in 0..<300 {
      var changes: [PropertyListKey: PropertyListChange] = [:]
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let key = "key \(Int.random(in: 0..<12, using: &generator))"
        if Bool.random(using: &generator) {
          changes[key] = .set(pool.randomElement(using: &generator)!)
        } else {
          changes[key] = .remove
        }
      }
      let edited = try #require(try XMLPropertyListEdit.applying(changes, to: text, known: known))
      let afterScan = try #require(try XMLPropertyListEdit.applying(changes, to: text))
      #expect(edited.text == afterScan.text)
      text = edited.text
      // The entries made from the edit are those a scan of the written text finds.
      let scanned = try #require(XMLPropertyListEntries.entries(of: text))
      #expect(edited.entries.keys == scanned.keys)
      #expect(edited.entries.fingerprints == scanned.fingerprints)
      #expect(edited.entries.layout == scanned.layout)
      known = edited.entries
      var document = PropertyListDocument(values: expected, format: .xml)
      document.apply(changes)
      expected = document.values
      #expect(propertyListValuesEqual(try Self.parsed(text), expected))
    }
  }

  @Test func aSuiteFlushKeepsAHandEditedEntryAndStaysXML() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let url = folder.file("suite.plist")
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<100 { values["key \(index)"] = "value \(index)" }
    let foundation = String(
      decoding: try PropertyListSerialization.data(
        fromPropertyList: values.stringKeyed, format: .xml, options: 0), as: UTF8.self)
    let handEdited = "<key>key 50</key>      <string>edited   by hand</string>"
    try Data(
      foundation.replacingOccurrences(
        of: "<key>key 50</key>\n\t<string>value 50</string>", with: handEdited
      ).utf8
    ).write(to: url)
    let suite = PropertyListDefaults(fileURL: url)
    suite.set("changed", forKey: "key 3")
    suite.set(["list": [1, 2]], forKey: "added")
    suite.removeObject(forKey: "key 4")
    try suite.flush()
    let written = try Data(contentsOf: url)
    #expect(String(decoding: written, as: UTF8.self).contains(handEdited))
    #expect(written.starts(with: Data("<?xml".utf8)))
    let read = try Self.parsed(written)
    #expect(read["key 3"] as? String == "changed")
    #expect(read["key 4"] == nil)
    #expect(read["key 50"] as? String == "edited   by hand")
    #expect(read.count == 100)
  }
}
