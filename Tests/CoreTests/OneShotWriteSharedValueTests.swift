import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// One-shot writes into a binary suite whose entries share one value object, as Foundation,
/// python's `plistlib` and this package's document writer store equal values, with the top
/// dictionary first: the old top dictionary's references are more than a quarter of such a file.
@Suite struct OneShotWriteSharedValueTests {
  /// Each write is spliced (the old top dictionary left out of the copy), nothing is parsed,
  /// and the file does not grow by the old top dictionary. Before, the old top dictionary stayed
  /// in the file (37,003 bytes from 29,005 here), and where it passed a quarter of the file (at
  /// 100,000 keys) the splice gave up at every write: the document was read and written whole,
  /// its top dictionary first again.
  @Test func aSuiteOfOneSharedValueIsSplicedAtEveryWrite() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.url.appendingPathComponent("shared.plist")
      var values: [PropertyListKey: Any] = [:]
      for index in 0..<2_000 { values["key \(index)"] = "the same value for every key" }
      let data = try BinaryPropertyListWriter.data(of: values)
      try data.write(to: url)
      for round in 0..<3 {
        #expect(try PropertyListFile(url: url).write(["key 5": .set("round \(round)")]))
        values["key 5"] = "round \(round)"
      }
      let counts = PropertyListCounters.counts(for: url)
      #expect(counts.parses == 0 && counts.writes == 3 && counts.keysEncoded == 3, "\(counts)")
      let size = try #require(
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
      // The three new values, their offsets and a top dictionary of 2-byte references.
      #expect(size < data.count + 3 * 12, "\(size) bytes from \(data.count)")
      let back = try #require(try PropertyListFile(url: url).read()).values
      #expect(propertyListValuesEqual(back, values))
    }
  }
}
