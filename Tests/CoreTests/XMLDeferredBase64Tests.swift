import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A re-read of an XML file leaves the Base64 of its entries' `<data>` values to after the scan
/// (``XMLPropertyListEntries/topDictionary(_:deferringData:)``): a changed entry's is checked as
/// it is decoded, the others' after the scan. Compared with the scan that checks each as it
/// meets it, over many mutated files: the same refusal (reason and line), or the same values.
@Suite struct XMLDeferredBase64Tests {
  /// A suite with data values at several places, large and small, and other scalars between.
  private static var values: [PropertyListKey: Any] {
    var values: [PropertyListKey: Any] = [
      "a blob": Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
      "b count": 12,
      "c small": Data([0, 1, 2, 255]),
      "d date": Date(timeIntervalSinceReferenceDate: 694_900_766),
      "e one": Data([9]),
      "f nested": ["x": Data([1, 2, 3])],
      "g empty": Data(),
      "h real": 2.5,
    ]
    for index in 0..<20 { values["key \(index)"] = Data(repeating: UInt8(index), count: index) }
    return values
  }

  /// What a scan that checks each `<data>` as it meets it says of `data`: its reason for
  /// refusing it, else nil.
  private static func checkedWhole(_ data: Data) -> String? {
    do {
      _ = try data.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
        try XMLPropertyListEntries.topDictionary(bytes)
      }
      return nil
    } catch {
      return error.reason
    }
  }

  /// What our reader's whole parse, which builds every value, says of `data`: its reason for
  /// refusing it, else nil.
  private static func refusalOfWholeParse(_ data: Data) -> String? {
    do {
      _ = try data.withUnsafeBytesRejecting { (bytes) throws(PropertyListRejection) in
        var scanner = XMLPropertyListScanner(
          bytes: bytes, limits: .preferences, building: true, indexing: false)
        return try scanner.document()
      }
      return nil
    } catch {
      return error.reason
    }
  }

  /// Our reader's values of `data`, parsed whole.
  private static func parsedWhole(_ data: Data) throws -> [PropertyListKey: Any] {
    try PropertyListFile(url: URL(fileURLWithPath: "/whole.plist")).parse(data).values
  }

  @Test func aReReadRefusesWhatTheCheckingScanRefusesAndReadsTheSameValues() throws {
    var generator = SeededGenerator(seed: 42)
    let before = try PropertyListSerialization.data(
      fromPropertyList: Self.values.stringKeyed, format: .xml, options: 0)
    let old = try #require(XMLPropertyListEntries.entries(of: before))
    let previous = try Self.parsedWhole(before)
    var (refused, read, wholeOnly) = (0, 0, 0)
    for round in 0..<3_000 {
      // Mostly bytes that break Base64 or its groups, some that break the markup after it.
      let alphabet = round % 3 == 0 ? "=&!A\n x<>/" : "=A/+\t-é"
      let after = Data(generator.mutated([UInt8](before), inserting: alphabet))
      let expected = Self.checkedWhole(after)
      let outcome = Result { () throws(PropertyListRejection) in
        try XMLPropertyListEntries.changes(of: after, since: old, previous: previous)
      }
      switch (expected, outcome) {
      case (let reason?, .failure(let rejection)):
        #expect(rejection.reason == reason)
        refused += 1
      case (nil, .success(let changes?)):
        var values = previous
        for key in changes.removed { values[key] = nil }
        values.merge(changes.set) { $1 }
        #expect(propertyListValuesEqual(values, try Self.parsedWhole(after)))
        read += 1
      case (let reason, .success(nil)):
        // Not in the plain form: the file is parsed whole, which refuses it the same way.
        #expect(Self.refusalOfWholeParse(after) == reason)
        wholeOnly += 1
      case (let reason?, .success):
        Issue.record("read a file the checking scan refuses: \(reason)")
      case (nil, .failure(let rejection)):
        Issue.record("refused a file the checking scan takes: \(rejection.reason)")
      }
    }
    // Both kinds of outcome were met, many times.
    #expect(refused > 300)
    #expect(read > 100)
    #expect(refused + read + wholeOnly == 3_000)
  }
}
