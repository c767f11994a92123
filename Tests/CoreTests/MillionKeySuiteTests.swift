import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Issue 23: a 1,000,000-key suite opens, takes a one-key change and is re-read by another
/// reader in both formats; the change is the only entry written anew in an XML file and the
/// only key another reader finds changed.
@Suite struct MillionKeySuiteTests {
  static let keys = 1_000_000

  /// The suite's bytes: keys `key-0`…, string values `value 0`….
  static func contents(_ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
    guard format == .xml else {
      let values = Dictionary(
        uniqueKeysWithValues: (0..<keys).map { ("key-\($0)", "value \($0)" as Any) })
      return try PropertyListEncoding.data(
        of: PropertyListDocument(values: values, format: .binary))
    }
    var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n<dict>\n"
    text.reserveCapacity(keys * 48)
    for index in 0..<keys {
      text += "\t<key>key-\(index)</key>\n\t<string>value \(index)</string>\n"
    }
    return Data((text + "</dict>\n</plist>\n").utf8)
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func aMillionKeySuiteRoundTrips(format: PropertyListSerialization.PropertyListFormat)
    async throws
  {
    try await withTemporaryFolder { folder in
      let url = folder.file("million")
      let before = try Self.contents(format)
      try before.write(to: url)
      let (writer, reader) = (PropertyListFile(url: url), PropertyListFile(url: url))
      var known = try writer.readSnapshot()
      var base = try reader.readSnapshot()
      #expect(known?.document.values.count == Self.keys)
      #expect(known?.document.values["key-999999"] as? String == "value 999999")

      _ = try writer.apply(["key-500000": .set("changed")], known: &known)
      let (snapshot, changedKeys) = try reader.rereadSnapshot(
        comparingTo: try #require(base?.document.values), since: &base)
      #expect(changedKeys == ["key-500000"])
      let values = try #require(snapshot?.document.values)
      #expect(values.count == Self.keys)
      #expect(values["key-500000"] as? String == "changed")
      #expect(values["key-499999"] as? String == "value 499999")
      #expect(snapshot?.document.format == format)

      if format == .xml {
        // Every byte but the changed value's text is the file's before.
        var expected = before
        let old = Data("<string>value 500000</string>".utf8)
        expected.replaceSubrange(
          try #require(before.range(of: old)), with: Data("<string>changed</string>".utf8))
        #expect(try Data(contentsOf: url) == expected)
      }
    }
  }
}
