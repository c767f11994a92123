import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Issues 23 and 41: every XML property list is read by our one-pass scanner
/// (`XMLPropertyListScanner`), which checks the text as it builds the values, instead of a
/// validator's walk followed by our plain-form reader or Foundation's parser. Whenever Foundation
/// reads a file too, the values are exactly Foundation's, line ends included.
@Suite struct XMLPropertyListScannerTests {
  /// Foundation's canonical values of `data`; nil when it refuses them.
  private static func foundation(_ data: Data) -> [String: Any]? {
    guard let root = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
      return nil
    }
    return PropertyListValue.normalized(root) as? [String: Any]
  }

  /// Our values of `data` by exact key, or nil when it is refused.
  private static func ours(_ data: Data) -> [PropertyListKey: Any]? {
    try? PropertyListFile(url: URL(fileURLWithPath: "/nonexistent/x.plist")).document(from: data)
      .values
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

  /// Forms other than the plain one, which Foundation was left to read before.
  static let unplain: [String] = [
    "<string>a\r\nb\rc</string>", "<string><![CDATA[x<y&z]]></string>",
    "<string>a<![CDATA[\r\n]]>&#13;&#x1F3B9;b</string>", "<key>a key as a value</key>",
    "<integer>0x1F</integer>", "<integer>  -0X1f</integer>", "<real>nan</real>",
    "<real>-Infinity</real>", "<real> 1.5</real>", "<real>&#49;.<![CDATA[5]]></real>",
    "<date>12024-01-01T00:00:00Z</date>", "<string attribute=\"x\">a</string>",
    "<!-- a comment --><?pi x?><string>after markup</string>",
    "<dict><!-- c --><key>a&amp;b</key><!-- c --><string>c</string></dict>",
    "<true></true>", "<array><string>a</string><!-- c --><false></false ></array>",
  ]

  @Test(arguments: plain + unplain)
  func elementsAreReadAsFoundationReadsThem(element: String) throws {
    let data = Self.document(element)
    let expected = try #require(Self.foundation(data))
    let values = try #require(Self.ours(data))
    #expect(propertyListValuesEqual(values.stringKeyed, expected), "\(values) against \(expected)")
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
      let read = try #require(Self.ours(data))
      #expect(
        propertyListValuesEqual(read.stringKeyed, PropertyListValue.normalized(values) as Any))
    }
  }

  /// What `plist-fuzz` (read mode, seed 41) found at inputs 39580, 40623 and 42651: a carriage
  /// return in a string, and keys that differ only in a carriage return against a line feed.
  /// CoreFoundation keeps the text as written (and writes a carriage return raw), so two such
  /// keys are two keys, and a control character such as U+0010 is read as it is; so are ours.
  @Test func lineEndsAndControlCharactersAreReadAsWrittenAsCoreFoundationReadsThem() throws {
    let data = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      	<key>0xf70b\r0x20000</key>
      	<string>[19;2~</string>
      	<key>0xf70b\n0x20000</key>
      	<string>[20;2~</string>
      	<key>text</key>
      	<string>&lt;dd&gt;a\r\nb\rc<![CDATA[\r\n]]>&lt;\rdd&gt; or\u{10}a file</string>
      </dict>
      </plist>

      """.utf8)
    let expected = [
      "0xf70b\r0x20000": "[19;2~", "0xf70b\n0x20000": "[20;2~",
      "text": "<dd>a\r\nb\rc\r\n<\rdd> or\u{10}a file",
    ]
    let foundation = try #require(Self.foundation(data))
    let values = try #require(Self.ours(data)).stringKeyed
    for (key, value) in expected {
      #expect(
        (foundation[key] as? String)?.unicodeScalars.elementsEqual(value.unicodeScalars) == true)
      #expect((values[key] as? String)?.unicodeScalars.elementsEqual(value.unicodeScalars) == true)
    }
    #expect(values.count == 3)
  }

  /// Mutated files: whenever both read them, our values are Foundation's; nothing crashes or
  /// hangs, and both read many.
  @Test func mutatedFilesGiveFoundationsValuesOrNone() throws {
    var generator = SeededGenerator(seed: 2027)
    let before = Self.document(
      (Self.plain + Self.unplain).enumerated().map { "<key>\($0)</key>\($1)" }
        .joined(separator: "\n\t").dropFirst("<key>0</key>".count).description)
    var agreed = 0
    for round in 0..<2000 {
      let data = Data(generator.mutated([UInt8](before), inserting: "<>/&;#\n x0.e-![]"))
      guard let expected = Self.foundation(data), let values = Self.ours(data) else { continue }
      #expect(propertyListValuesEqual(values.stringKeyed, expected), "round \(round)")
      agreed += 1
    }
    #expect(agreed > 100)
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
