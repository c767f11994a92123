import Foundation
import Testing

@testable import ObservableDefaultsCore

/// ``BinaryPropertyListKeyMatcher``: a key object matches exactly the keys it holds, however many
/// of its bytes (its length, its last 8) it shares with other keys.
@Suite struct BinaryPropertyListKeyMatcherTests {
  /// Keys that share a length and their last 8 bytes (`key-000002`, `hey-000002`), or only a
  /// first part, shorter and longer than 8 bytes, the empty key, and keys stored as UTF-16.
  private static let keys: [PropertyListKey] = [
    "", "a", "b", "key-000002", "hey-000002", "key-000003", "key-0000002", "y-000002",
    "a key of more than sixteen bytes", "b key of more than sixteen bytes", "é", "ключ-000002",
    "ключ-000003", "ключ",
  ]

  /// The key sought that each key object of a file holding all of `keys` matches (its index).
  private func matches(seeking sought: [PropertyListKey]) throws -> [PropertyListKey: Int?] {
    let data = try BinaryPropertyListWriter.data(
      of: [PropertyListKey: Any](uniqueKeysWithValues: Self.keys.map { ($0, 1) }))
    let matcher = BinaryPropertyListKeyMatcher(sought)
    return try BinaryPropertyListScanner.scanning(data) { scanner throws(PropertyListRejection) in
      guard let top = try scanner.topDictionary() else { return [:] }
      let bytes = scanner.bytes
      var matches: [PropertyListKey: Int?] = [:]
      _ = try scanner.forEachEntry(at: 0..<top.count, of: top, depth: 1) { _, key, _, _, _ in
        matches[PropertyListKey(key.string(in: bytes))] = matcher.match(key, in: bytes)
        return true
      }
      return matches
    }
  }

  @Test func eachKeyObjectMatchesOnlyItsOwnKey() throws {
    let matches = try matches(seeking: Self.keys)
    #expect(matches.count == Self.keys.count)
    for (index, key) in Self.keys.enumerated() {
      #expect(matches[key] == .some(index), "\(key.string)")
    }
  }

  @Test func keysTheFileDoesNotHoldMatchNothing() throws {
    let matches = try matches(seeking: ["key-000004", "jey-000002", "ключ-000004", "c"])
    #expect(matches.values.allSatisfy { $0 == nil })
  }
}
