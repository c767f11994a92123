import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A binary suite's file stays within a constant factor of its values under every write
/// pattern: a replaced value counts with everything it held, so the draft is made again before
/// unreferenced objects pile up (a rewritten array value used to grow its suite without bound:
/// 500 flushes of a 10 KB array left 5.0 MB).
@Suite struct SuiteFileGrowthTests {
  /// What one flush of a pattern changes, given the flush's number.
  typealias Pattern = @Sendable (Int) -> [PropertyListKey: PropertyListChange]

  static let patterns: [(name: String, changes: Pattern)] = [
    ("a 10 KB string rewritten", { ["note": .set(text(10_000, seed: $0))] }),
    (
      "a recent-files array of 200 paths, newest first",
      { flush in ["recent": .set((0..<200).map { "/home/user/document-\(flush - $0).txt" })] }
    ),
    (
      "a nested settings dictionary, one leaf changed",
      { flush in
        let groups = (0..<20).map { group in
          (
            "group \(group)",
            Dictionary(
              uniqueKeysWithValues: (0..<20).map { ("k\($0)", $0 == flush % 20 ? flush : $0) })
              as Any
          )
        }
        return ["layout": .set(Dictionary(uniqueKeysWithValues: groups))]
      }
    ),
    ("a 10 KB data value rewritten", { ["blob": .set(Data(text(10_000, seed: $0).utf8))] }),
    (
      "keys added and removed",
      { flush in
        ["key \(flush)": .set(text(100, seed: flush)), "key \(flush - 30)": .remove]
      }
    ),
  ]

  /// `count` characters of text that differ for every `seed`.
  static func text(_ count: Int, seed: Int) -> String {
    String(String(repeating: "\(seed) ", count: count / 2).prefix(count))
  }

  /// The bound every version of the file keeps: twice the bytes of a file written afresh from
  /// the same values, plus 8 KiB.
  static func bound(ofFreshFile fresh: Int) -> Int { 2 * fresh + 8192 }

  @Test(arguments: patterns.indices)
  func thousandsOfFlushesKeepTheDraftWithinTwiceTheValues(pattern: Int) throws {
    var values: [PropertyListKey: Any] = ["name": "Fatbobman", "age": 20]
    var draft = try BinaryPropertyListDraft(values: values)
    var remade = 0
    var largestRatio = 0.0
    for flush in 0..<2_000 {
      let changes = Self.patterns[pattern].changes(flush)
      var document = PropertyListDocument(values: values, format: .binary)
      document.apply(changes)
      values = document.values
      if try !draft.apply(changes) {
        draft = try BinaryPropertyListDraft(values: values)
        remade += 1
      }
      let size = try draft.data().count
      let fresh = try BinaryPropertyListDraft(values: values).data().count
      largestRatio = max(largestRatio, Double(size) / Double(fresh))
      #expect(
        size <= Self.bound(ofFreshFile: fresh),
        "\(Self.patterns[pattern].name), flush \(flush): \(size) bytes for \(fresh)")
    }
    // The draft is reused most of the time and made again now and then.
    #expect(remade > 0 && remade < 2_000, "\(Self.patterns[pattern].name): \(remade)")
  }

  @Test func aSuiteFileRewritingAnArrayValueStaysBoundedOnDisk() throws {
    let folder = try TemporaryFolder()
    let file = PropertyListFile(url: folder.file("growth.plist"))
    try BinaryPropertyListWriter.data(of: ["name": "Fatbobman"]).write(to: file.url)
    var known: PropertyListSnapshot?
    let recent = Self.patterns[1].changes
    var values: [PropertyListKey: Any] = ["name": "Fatbobman"]
    for flush in 0..<200 {
      let changes = recent(flush)
      _ = try file.apply(changes, known: &known)
      var document = PropertyListDocument(values: values, format: .binary)
      document.apply(changes)
      values = document.values
      let size = try #require(try file.readData()).data.count
      let fresh = try BinaryPropertyListWriter.data(of: values).count
      #expect(size <= Self.bound(ofFreshFile: fresh), "flush \(flush): \(size) for \(fresh)")
    }
    #expect(propertyListValuesEqual(try file.read()?.values, values))
  }
}
