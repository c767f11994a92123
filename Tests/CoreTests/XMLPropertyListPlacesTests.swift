import Foundation
import Testing

@testable import ObservableDefaultsCore

/// Issue 42, item 1: a one-shot write finds the entry of its key among keys of the same length by
/// their first and last 8 bytes before comparing them whole (``XMLPropertyListPlaces``).
@Suite struct XMLPropertyListPlacesTests {
  /// Keys of each length, those of one length sharing their first 8 bytes, their last 8, or
  /// both (then differing between them); each value is the key's index.
  private static let keys = [
    "", "k", "key-0001", "key-0002", "key-000001", "key-000002", "key-000102", "x-key-000002",
    "a-long-key-with-one-middle-end", "a-long-key-with-two-middle-end",
    "a-long-key-with-two-middle-enD",
  ]

  @Test func eachKeyIsFoundAtItsOwnEntryAmongKeysThatShareTheirEnds() throws {
    let entries = Self.keys.enumerated().map { "\t<key>\($1)</key>\n\t<integer>\($0)</integer>\n" }
    let data = Data(
      ("<plist version=\"1.0\">\n<dict>\n" + entries.joined() + "</dict>\n</plist>\n").utf8)
    for (index, key) in Self.keys.enumerated() {
      let places = try data.withUnsafeBytes {
        try XMLPropertyListEntries.places(of: [PropertyListKey(key)], in: $0)
      }
      let place = try #require(places?.found[0])
      #expect(String(decoding: data[place.value], as: UTF8.self) == "<integer>\(index)</integer>")
      #expect(places?.isHeldTwice == false)
    }
  }
}
