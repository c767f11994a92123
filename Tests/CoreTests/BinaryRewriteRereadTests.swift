import Foundation
import ObservableDefaultsTesting
import Testing

@testable import ObservableDefaultsCore

/// The re-read of a binary file another writer rewrote, for a suite that keeps the values
/// itself (``BinaryPropertyListScanner/changes(of:comparingTo:)``): only the values that differ
/// from memory's are kept (issue 42, item 3), and the keys it names are exactly the whole
/// re-read's.
@Suite struct BinaryRewriteRereadTests {
  /// A rewrite that changes, adds and removes a key, and moves every entry.
  @Test func onlyTheChangedValuesAreKept() throws {
    var previous: [PropertyListKey: Any] = [:]
    for index in 0..<1_000 { previous["key \(index)"] = "value \(index)" }
    var rewritten = [PropertyListKey: Any](minimumCapacity: 10_000)
    rewritten.merge(previous) { first, _ in first }
    rewritten["key 1"] = "changed"
    rewritten["key 2"] = nil
    rewritten["added"] = 3
    let data = try BinaryPropertyListWriter.data(of: rewritten)
    let changes = try #require(
      try BinaryPropertyListScanner.changes(of: data, comparingTo: previous))
    #expect(changes.set.count == 2)
    #expect(changes.set["key 1"] as? String == "changed")
    #expect(changes.set["added"] as? Int == 3)
    #expect(changes.removed == ["key 2"])
    #expect(changes.entries.keys.count == 1_000)
    #expect(BinaryPropertyListRewriteComparison.difference(in: data) == nil)
  }

  /// A key held twice: its first value is the one read, which only the whole re-read keeps, so
  /// the rewrite's re-read gives way to it.
  @Test func aKeyHeldTwiceIsLeftToTheWholeReread() throws {
    // {"k": "a", "k": "b"}
    let data = BinaryPropertyListBytes.file([
      [0xD2, 1, 1, 2, 3], [0x51, UInt8(ascii: "k")], [0x51, UInt8(ascii: "a")],
      [0x51, UInt8(ascii: "b")],
    ])
    #expect(try BinaryPropertyListScanner.changes(of: data, comparingTo: ["k": "a"]) == nil)
    let whole = try BinaryPropertyListScanner.value(of: data, comparingTo: ["k": "a"])
    #expect(whole.changedKeys == [])
    #expect(BinaryPropertyListRewriteComparison.difference(in: data) == nil)
  }

  /// The binary fixtures (real preference files) read the same both ways.
  @Test func everyBinaryFixtureReadsTheSameBothWays() throws {
    for (name, data) in try PropertyListFileTests.binaryFixtures() {
      #expect(BinaryPropertyListRewriteComparison.difference(in: data) == nil, "\(name)")
    }
  }
}
