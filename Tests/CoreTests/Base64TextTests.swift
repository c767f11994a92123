import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// ``Base64Text`` against Foundation: the lines written are Foundation's Base64 cut into lines,
/// and the bytes read are Foundation's decoding of every text ``XMLScalarText/isBase64(_:)``
/// takes, and nothing for the texts it refuses.
@Suite struct Base64TextTests {
  @Test(arguments: [0, 1, 2, 3, 50, 51, 52, 53, 102, 1000, 65_537])
  func encodesFoundationsBase64InLines(count: Int) {
    var generator = SeededGenerator(seed: UInt64(count))
    let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    // Lines of 57, 51, 9, 6 and 3 bytes; indentations of 0, 1, 8, 1, 2 and 9 bytes (one store
    // of 8 up to 8 bytes, a copy past that).
    let layouts = [
      (76, ""), (68, "\t"), (12, "\t\t\t\t\t\t\t\t"), (8, " "), (4, "\t\t"),
      (12, "\t\t\t\t\t\t\t\t\t"),
    ]
    for (lineLength, indentation) in layouts {
      let expected = Self.lines(
        of: data.base64EncodedString(), lineLength: lineLength, indentation: indentation)
      let count = Base64Text.byteCount(
        encoding: data.count, lineLength: lineLength, indentation: indentation.utf8.count)
      var written = [UInt8](repeating: 0, count: count)
      var indentation = indentation
      indentation.withUTF8 { indentation in
        data.withUnsafeBytes { data in
          written.withUnsafeMutableBytes {
            Base64Text.encode(
              data, lineLength: lineLength, indentation: UnsafeRawBufferPointer(indentation),
              into: $0.baseAddress!)
          }
        }
      }
      #expect(String(decoding: written, as: UTF8.self) == expected)
    }
  }

  @Test func decodesWhatFoundationDecodesAndRefusesWhatTheCheckRefuses() {
    var generator = SeededGenerator(seed: 42)
    let pieces = ["QUJD", "QQ==", "QUI=", "AB", "=", "==", "\n", "\t", " ", "\r", "&", "-", "A"]
    for _ in 0..<20_000 {
      let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
      Self.expectSameAsFoundation(Data(text.utf8))
    }
    // Whole lines of random bytes, as writers make them.
    for count in [0, 1, 2, 3, 51, 52, 10_000] {
      let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
      let text = Self.lines(of: data.base64EncodedString(), lineLength: 68, indentation: "\t")
      let decoded = Data(text.utf8).withUnsafeBytes { Base64Text.decode($0) }
      #expect(decoded == data)
    }
  }

  /// A text of 4 KiB or more is decoded 8 characters at a time while they are all letters:
  /// any other byte (white space, `=`, a byte outside the alphabet), put in place of a letter or
  /// before it, at each place near the start, the middle and the end, decodes as Foundation
  /// decodes it or is refused as the check refuses it.
  @Test func aLongTextDecodesAsFoundationWhateverByteStopsItsRunOfLetters() {
    var generator = SeededGenerator(seed: 7)
    let data = Data((0..<3_201).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let letters = Array(data.base64EncodedString().utf8)
    let places = Array(0..<20) + Array(2_000..<2_020) + Array((letters.count - 20)..<letters.count)
    for place in places {
      for byte: UInt8 in [0x20, 0x0A, 0x0D, 0x3D, 0x26, 0x80, 0x00, 0x2B] {
        var replaced = letters
        replaced[place] = byte
        Self.expectSameAsFoundation(Data(replaced))
        var inserted = letters
        inserted.insert(byte, at: place)
        Self.expectSameAsFoundation(Data(inserted))
      }
    }
    Self.expectSameAsFoundation(Data(letters))
  }

  @Test func aLargeValueIsDecodedIntoABlockOfItsOwnSize() throws {
    let data = Data((0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let text = Self.lines(of: data.base64EncodedString(), lineLength: 68, indentation: "\t")
    let decoded = try #require(Data(text.utf8).withUnsafeBytes { Base64Text.decode($0) })
    #expect(decoded == data)
  }

  /// A text in lines, as the writers make it, is decoded 8 characters at a time up to each
  /// line's end, where one load is given up (its first 4 letters kept) and the line break and
  /// the next line's indentation are skipped together. The decoder gave up 4 loads per line
  /// before (the 8 and the 4 at the line's end, both again at the line break) and 2 at the
  /// first indentation: 3,998 for these 1,000 lines.
  @Test func aTextInLinesGivesUpOneLoadPerLine() {
    let data = Data((0..<51_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    let text = Self.lines(of: data.base64EncodedString(), lineLength: 68, indentation: "\t")
    // The decoder's bound for the text's bytes.
    var output = [UInt8](repeating: 0, count: text.utf8.count / 4 * 3 + 2)
    var abandonedLoads = 0
    let count = Data(text.utf8).withUnsafeBytes { text in
      output.withUnsafeMutableBytes {
        Base64Text.decode(text, into: $0.baseAddress!, abandonedLoads: &abandonedLoads)
      }
    }
    #expect(count == data.count)
    #expect(Data(output.prefix(data.count)) == data)
    // The first line's indentation, then each line's end but the last's (fewer than 8 left).
    #expect(abandonedLoads == 1_000)
  }

  /// Base64 text cut into lines of `lineLength` characters, each after `indentation` and ending
  /// with a line break.
  private static func lines(of base64: String, lineLength: Int, indentation: String) -> String {
    var lines = ""
    var rest = Substring(base64)
    while !rest.isEmpty {
      lines += indentation + rest.prefix(lineLength) + "\n"
      rest = rest.dropFirst(lineLength)
    }
    return lines
  }

  private static func expectSameAsFoundation(_ text: Data) {
    let decoded = text.withUnsafeBytes { Base64Text.decode($0) }
    guard text.withUnsafeBytes({ XMLScalarText.isBase64($0) }) else {
      #expect(decoded == nil, "\(String(decoding: text, as: UTF8.self).debugDescription)")
      return
    }
    let expected = Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data()
    #expect(decoded == expected, "\(String(decoding: text, as: UTF8.self).debugDescription)")
  }
}
