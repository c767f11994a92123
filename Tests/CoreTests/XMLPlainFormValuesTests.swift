import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Issue 23: XML suites in the plain form are read by our one-pass reader instead of
/// Foundation's parser (6.8 s → see Benchmarks/README.md for a 1,000,000-key suite). Whenever it
/// gives values they are exactly Foundation's; what it does not take is left to Foundation.
@Suite struct XMLPlainFormValuesTests {
  /// Foundation's canonical values of bytes the validator takes; nil otherwise.
  private static func foundation(_ data: Data) -> [String: Any]? {
    guard (try? PropertyListValidator.validate(data)) != nil,
      let root = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    else { return nil }
    return PropertyListValue.normalized(root) as? [String: Any]
  }

  private static func document(_ element: String) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>k</key>
      \t\(element)
      </dict>
      </plist>

      """.utf8)
  }

  /// Elements the reader takes, each with the value Foundation gives.
  static let plain: [String] = [
    "<string>plain</string>", "<string></string>", "<string/>",
    "<string>  spaced\n\tlines  </string>",
    "<string>&lt;a&gt; &amp; &quot;q&quot; &apos;s&apos;</string>",
    "<string>&#65;&#x42;&#x1F3B9;</string>",
    "<string>Grüße ключ 🎹</string>", "<integer>0</integer>", "<integer>-0</integer>",
    "<integer>+5</integer>", "<integer>9223372036854775807</integer>",
    "<integer>9223372036854775808</integer>", "<integer>18446744073709551615</integer>",
    "<integer>-9223372036854775808</integer>", "<real>1</real>", "<real>-0</real>",
    "<real>1.5</real>", "<real>1e10</real>", "<real>1E-5</real>", "<real>.5</real>",
    "<real>5.</real>", "<real>0.1</real>", "<real>1e400</real>", "<real>-2.5e-310</real>",
    "<date>2024-02-29T23:59:59Z</date>", "<date>1970-01-01T00:00:00Z</date>",
    "<date>0001-01-01T00:00:00Z</date>", "<date>0000-03-01T12:00:00Z</date>",
    "<date>1900-03-01T12:00:00Z</date>", "<date>9999-12-31T23:59:59Z</date>",
    "<data></data>", "<data>\n\t</data>", "<data>AAEC\n\t/w==\n\t</data>", "<true/>", "<false/>",
    "<array/>", "<dict/>",
    "<array>\n\t\t<integer>1</integer>\n\t\t<array><true/></array>\n\t</array>",
    "<dict><key>a &amp; b</key><dict><key>c</key><string>d</string></dict><key></key><real>2</real></dict>",
  ]

  @Test(arguments: plain)
  func plainElementsAreReadAsFoundationReadsThem(element: String) throws {
    let data = Self.document(element)
    let expected = try #require(Self.foundation(data))
    let values = try #require(XMLEntryScanner.values(of: data))
    #expect(propertyListValuesEqual(values, expected), "\(values) against \(expected)")
  }

  /// Forms the reader leaves to Foundation, which still reads them (after XML's translation of
  /// line ends, ``XMLLineEnds``, which Foundation's parser here does not make).
  static let unplain: [String] = [
    "<string>a\r\nb</string>", "<string><![CDATA[x]]></string>",
    "<integer>0x1F</integer>", "<real>nan</real>", "<real> 1.5</real>",
    "<date>12024-01-01T00:00:00Z</date>", "<string attribute=\"x\">a</string>",
  ]

  @Test(arguments: unplain)
  func otherFormsAreLeftToFoundation(element: String) throws {
    let data = Self.document(element)
    #expect(XMLEntryScanner.values(of: data) == nil)
    let values = try PropertyListFile(url: URL(fileURLWithPath: "/nonexistent/x.plist"))
      .document(from: data).values
    #expect(propertyListValuesEqual(values, Self.foundation(XMLLineEnds.normalized(data))))
  }

  @Test func aKeyHeldTwiceIsLeftToFoundation() {
    let data = Self.document("<true/><key>k</key><false/>")
    #expect(XMLEntryScanner.values(of: data) == nil)
  }

  /// Random documents as Foundation writes them are all read, to the values written.
  @Test func whatFoundationWritesIsReadToTheValuesWritten() throws {
    var generator = SeededGenerator(seed: 23)
    for _ in 0..<200 {
      var values: [String: Any] = [:]
      for index in 0..<Int.random(in: 0...20, using: &generator) {
        values["key \(index) <&>"] = Self.randomValue(depth: 0, using: &generator)
      }
      let data = try PropertyListSerialization.data(
        fromPropertyList: values, format: .xml, options: 0)
      let read = try #require(XMLEntryScanner.values(of: data))
      #expect(propertyListValuesEqual(read, PropertyListValue.normalized(values)))
    }
  }

  /// Mutated files: whenever the reader gives values for bytes the validator takes, they are
  /// Foundation's; nothing crashes or hangs.
  @Test func mutatedFilesGiveFoundationsValuesOrNone() throws {
    var generator = SeededGenerator(seed: 2027)
    let before = Self.document(
      Self.plain.enumerated().map { "<key>\($0)</key>\($1)" }.joined(separator: "\n\t")
        .dropFirst("<key>0</key>".count).description)
    var (agreed, left) = (0, 0)
    for round in 0..<2000 {
      let data = Data(generator.mutated([UInt8](before), inserting: "<>/&;#\n x0.e-"))
      guard let expected = Self.foundation(data) else { continue }
      guard let values = XMLEntryScanner.values(of: data) else {
        left += 1
        continue
      }
      #expect(propertyListValuesEqual(values, expected), "round \(round)")
      agreed += 1
    }
    #expect(agreed > 100)
    #expect(left > 0)
  }

  private static func randomValue(depth: Int, using generator: inout SeededGenerator) -> Any {
    switch Int.random(in: 0..<(depth < 2 ? 9 : 7), using: &generator) {
    case 0:
      return String(
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in
          " aé<>&\"'\n\t🎹".randomElement(using: &generator)!
        })
    case 1: return Int.random(in: Int.min...Int.max, using: &generator)
    case 2: return Double.random(in: -1e6...1e6, using: &generator)
    case 3: return Bool.random(using: &generator)
    case 4:
      return Date(
        timeIntervalSinceReferenceDate: Double(
          Int.random(in: -2_000_000_000...2_000_000_000, using: &generator)))
    case 5:
      return Data(
        (0..<Int.random(in: 0...80, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        })
    case 6: return UInt64.random(in: UInt64(Int.max)...UInt64.max, using: &generator)
    case 7:
      return (0..<Int.random(in: 0...3, using: &generator)).map { _ in
        randomValue(depth: depth + 1, using: &generator)
      }
    default:
      return Dictionary(
        uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &generator)).map {
          ("k\($0)", randomValue(depth: depth + 1, using: &generator))
        })
    }
  }
}
