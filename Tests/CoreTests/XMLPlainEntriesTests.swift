import Foundation
import Testing

@testable import ObservableDefaultsCore

/// Issue 42, item 1: the XML scanner's fast path for the plain entries of a top dictionary
/// (`XMLPropertyListScanner.PlainEntryReader.entry(at:)`) takes the lines suites hold and hands every other one
/// over to the general walk, without changing a verdict, a refusal, a value or a count: each file
/// here is scanned with it on and off (`XMLPropertyListFastPath`) as a read, a re-read and a
/// one-shot write scan it.
@Suite struct XMLPlainEntriesTests {
  /// A document whose top dictionary's contents are `entries`.
  private static func document(_ entries: String) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>\(entries)
      </dict>
      </plist>

      """.utf8)
  }

  /// The re-read's scan of `data` (nothing built, entries indexed): the entries the fast path
  /// took, where it handed over (byte offsets), and the refusal.
  private static func scan(_ data: Data) -> (taken: Int, handOvers: [Int], refusal: String?) {
    data.withUnsafeBytes { bytes in
      var scanner = XMLPropertyListScanner(
        bytes: bytes, limits: .preferences, building: false, indexing: true)
      var refusal: String?
      do throws(PropertyListRejection) { _ = try scanner.document() } catch {
        refusal = error.reason
      }
      return (scanner.plainEntries, scanner.handOvers.first, refusal)
    }
  }

  /// The offset in `data` of the end of the first `text` (or its start).
  private static func offset(of text: String, in data: Data, end: Bool = true) -> Int {
    let range = String(decoding: data, as: UTF8.self).utf8
    let found = try! #require(String(decoding: data, as: UTF8.self).range(of: text))
    return range.distance(from: range.startIndex, to: end ? found.upperBound : found.lowerBound)
  }

  /// Expects the same findings with the fast path on and off.
  private static func expectSameFindings(
    _ data: Data, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let fast = XMLPropertyListFastPath.findings(in: data, finding: ["a", "c"])
    let general = XMLPropertyListFastPath.$isEnabled.withValue(false) {
      XMLPropertyListFastPath.findings(in: data, finding: ["a", "c"])
    }
    #expect(fast.description == general.description, sourceLocation: sourceLocation)
    #expect(propertyListValuesEqual(fast.values, general.values), sourceLocation: sourceLocation)
  }

  @Test func everyKindOfPlainLineIsTakenAndTheDictionaryEndHandsOver() {
    let data = Self.document(
      """

      \t<key>a</key>
      \t<string>plain text of 20 ch</string>
      \t<key>b</key>
      \t<integer>-123456789012345678</integer>
      \t<key>c</key>
      \t<real>2.5e-3</real>
      \t<key>d</key>
      \t<true/>
      \t<key>e</key>
      \t<false/>
      \t<key>f</key>
      \t<date>2024-02-29T23:59:59Z</date>
      \t<key>g</key>
      \t<data>AAEC/w==</data>
      \t<key></key>
      \t<string></string>
      \t<key>Grüße</key>
      \t<string>ключ 🎹</string>
      """)
    let scan = Self.scan(data)
    #expect(scan.taken == 9)
    #expect(scan.handOvers == [Self.offset(of: "ключ 🎹</string>", in: data)])
    #expect(scan.refusal == nil)
    Self.expectSameFindings(data)
  }

  @Test func aCommentAndANestedDictionaryAreHandedOverAndTheNextLineIsTakenAgain() {
    let data = Self.document(
      """

      \t<key>a</key>
      \t<string>one</string>
      \t<!-- a comment -->
      \t<key>b</key>
      \t<string>two</string>
      \t<key>c</key>
      \t<string>three</string>
      \t<key>n</key>
      \t<dict><key>x</key><string>y</string></dict>
      \t<key>d</key>
      \t<string>four</string>
      """)
    let scan = Self.scan(data)
    // a, c and d; b (after the comment) and n (a nested dictionary) by the general walk.
    #expect(scan.taken == 3)
    #expect(
      scan.handOvers == [
        Self.offset(of: "<string>one</string>", in: data),
        Self.offset(of: "<string>three</string>", in: data),
        Self.offset(of: "<string>four</string>", in: data),
      ])
    #expect(scan.refusal == nil)
    Self.expectSameFindings(data)
  }

  @Test func elementsOfEveryFormReadTheSameWithTheFastPathOnAndOff() {
    let elements = XMLPropertyListScannerTests.plain + XMLPropertyListScannerTests.unplain
    var taken = 0
    for element in elements {
      let data = Self.document("\n\t<key>a</key>\n\t\(element)\n\t<key>c</key>\n\t<true/>")
      Self.expectSameFindings(data)
      taken += Self.scan(data).taken
    }
    // The second entry each time, and the first where the element is in the plain form (27 of
    // the plain elements, and the date with a five-digit year of the others).
    #expect(taken == elements.count + 28)
  }

  /// Crafted bad files: the refusal is the general walk's, reason and line, with the fast path
  /// on as off.
  @Test(arguments: [
    ("<string>&unknown;</string>", "line 8: an unknown entity is used"),
    ("<string>open", "line 9: </string> is missing"),
    ("<string>no end<key>c</key>", "line 8: </string> is missing"),
    ("<integer>12a</integer>", "line 8: <integer> \"12a\" is not an integer"),
    (
      "<integer>-9223372036854775809</integer>",
      "line 8: <integer> -9223372036854775809 is outside -9223372036854775808…18446744073709551615"
    ),
    ("<real>1.2.3</real>", "line 8: <real> \"1.2.3\" is not a number"),
    (
      "<date>2023-02-29T00:00:00Z</date>",
      "line 8: <date> \"2023-02-29T00:00:00Z\" is not a date (YYYY-MM-DDTHH:MM:SSZ)"
    ),
    ("<data>AAE</data>", "line 8: <data> is not Base64"),
    ("<true/><true/>", "line 8: <true> stands where a dictionary's <key> belongs"),
  ])
  func badFilesAreRefusedAlikeWithTheFastPathOnAndOff(element: String, reason: String) throws {
    let data = Self.document(
      "\n\t<key>a</key>\n\t<string>before</string>\n\t<key>b</key>\n\t\(element)")
    Self.expectSameFindings(data)
    let scan = Self.scan(data)
    // The first entry, and the second of `<true/><true/>` (the refusal is at the third).
    #expect(scan.taken == (element == "<true/><true/>" ? 2 : 1))
    #expect(scan.refusal == "XML property list, " + reason)
  }

  @Test func aByteThatIsNotUTF8IsRefusedAlike() {
    var data = Self.document("\n\t<key>a</key>\n\t<string>ab</string>")
    data[Self.offset(of: "<string>a", in: data)] = 0xFF
    Self.expectSameFindings(data)
    #expect(Self.scan(data).refusal == "XML property list, line 6: a string is not UTF-8")
  }

  /// Elements before plain lines use up the element count (here at most one per 8 bytes of
  /// the file): the line that passes it is refused at the same element, with the same count, with
  /// the fast path on and off.
  @Test func theElementLimitRefusesAPlainLineAlike() {
    let limits = PropertyListLimits(maximumDepth: 512, maximumObjects: 0, maximumBytes: 64 << 20)
    func refusal(_ data: Data) -> String {
      data.withUnsafeBytes { bytes in
        var scanner = XMLPropertyListScanner(
          bytes: bytes, limits: limits, building: true, indexing: true)
        do throws(PropertyListRejection) {
          _ = try scanner.document()
          return "read, \(scanner.elementsCounted) elements"
        } catch {
          return "\(error.reason), \(scanner.elementsCounted) elements"
        }
      }
    }
    var refusedAtALine = 0
    for extra in 0..<40 {
      let filler = String(repeating: "<true/>", count: 240 + extra)
      let lines = (0..<8).map { "\n\t<key>k\($0)</key>\n\t<true/>" }.joined()
      let data = Self.document("\n\t<key>a</key>\n\t<array>\(filler)</array>" + lines)
      let fast = refusal(data)
      #expect(fast == XMLPropertyListFastPath.$isEnabled.withValue(false) { refusal(data) })
      if fast.contains("it holds more than"), !fast.contains("line 6") { refusedAtALine += 1 }
    }
    #expect(refusedAtALine > 0)
  }

  /// The tags' bytes, written as words (`XMLLiteral`), are their texts': each is found where its
  /// text is, by the word compare and by the byte compare near the end of the text, and not where
  /// one of its bytes differs or the text ends before it does.
  @Test func eachTagIsFoundWhereItsTextIsAndNowhereElse() {
    let tags: [(XMLLiteral, String)] = [
      (.key, "<key>"), (.keyEnd, "</key>"), (.string, "<string>"), (.stringEnd, "</string>"),
      (.integer, "<integer>"), (.integerEnd, "</integer>"), (.real, "<real>"),
      (.realEnd, "</real>"), (.date, "<date>"), (.dateEnd, "</date>"), (.data, "<data>"),
      (.dataEnd, "</data>"), (.true, "<true/>"), (.false, "<false/>"),
    ]
    for (tag, text) in tags {
      #expect(tag.count == text.utf8.count)
      for padding in [0, 16] {
        let bytes = Array(text.utf8) + Array(repeating: UInt8(ascii: "x"), count: padding)
        bytes.withUnsafeBytes { #expect(tag.isAt(0, in: $0), "\(text), \(padding)") }
        bytes.dropLast(padding + 1).withUnsafeBytes { #expect(!tag.isAt(0, in: $0)) }
        for index in 0..<text.utf8.count {
          var altered = bytes
          altered[index] ^= 0x20
          altered.withUnsafeBytes { #expect(!tag.isAt(0, in: $0), "\(text), byte \(index)") }
        }
      }
    }
  }
}
