import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A re-read after a change names exactly the keys added, changed or removed, in both formats.
@Suite struct PropertyListRereadTests {
  static var before: [PropertyListKey: Any] {
    [
      "same string": "unchanged, and long enough to live on the heap",
      "same short": "ok",
      "empty": "",
      "same unicode": "Grüße 🎹",
      "same nan": Double.nan,
      "same date": Date(timeIntervalSinceReferenceDate: 694_900_766),
      "same nested": ["a": [1, 2, ["b": Data([1, 2])]] as [Any]],
      "string, same length": "abcdef",
      "string, longer": "abc",
      "string to unicode": "Grusse",
      "int to bool": 1,
      "nested deep": ["a": [1, 2, ["b": Data([1, 2])]] as [Any]],
      "removed": "gone after",
    ]
  }

  static var after: [PropertyListKey: Any] {
    var values = before
    values["string, same length"] = "abcdeg"
    values["string, longer"] = "abcd"
    values["string to unicode"] = "Grüße"
    values["int to bool"] = true
    values["nested deep"] = ["a": [1, 2, ["b": Data([1, 3])]] as [Any]]
    values["removed"] = nil
    values["added"] = 42
    return values
  }

  static let changedKeys: Set<PropertyListKey> = [
    "string, same length", "string, longer", "string to unicode", "int to bool", "nested deep",
    "removed", "added",
  ]

  private func reread(_ data: Data, comparingTo previous: [PropertyListKey: Any]) throws -> (
    values: [PropertyListKey: Any], changedKeys: Set<PropertyListKey>
  ) {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = PropertyListFile(url: folder.file("reread.plist"))
    try data.write(to: file.url)
    var base: PropertyListSnapshot?
    let (snapshot, changedKeys) = try file.rereadSnapshot(comparingTo: previous, since: &base)
    return (try #require(snapshot).document.values, changedKeys)
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func aRereadNamesExactlyTheKeysThatChanged(format: PropertyListSerialization.PropertyListFormat)
    throws
  {
    let data = try PropertyListEncoding.data(
      of: PropertyListDocument(values: Self.after, format: format))
    let (values, changedKeys) = try reread(data, comparingTo: Self.before)
    #expect(changedKeys == Self.changedKeys)
    #expect(propertyListValuesEqual(values, Self.after))
    #expect(try reread(data, comparingTo: Self.after).changedKeys.isEmpty)
    #expect(try reread(data, comparingTo: [:]).changedKeys == Set(Self.after.keys))
  }

  /// The version before as a first re-read of the file leaves it (with its entries).
  private func rereadSince(_ before: Data, _ after: Data) throws -> (
    values: [PropertyListKey: Any], changedKeys: Set<PropertyListKey>, comparedBytes: Bool
  ) {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = PropertyListFile(url: folder.file("reread.plist"))
    try before.write(to: file.url)
    var none: PropertyListSnapshot?
    var base = try file.rereadSnapshot(comparingTo: [:], since: &none).snapshot
    #expect(base?.state.entries != nil)
    let previous = try #require(base).document.values
    try after.write(to: file.url)
    let (snapshot, changedKeys) = try file.rereadSnapshot(comparingTo: [:], since: &base)
    let values = try #require(snapshot).document.values
    // Parsed whole against the empty `previous`, every key would be named.
    return (values, changedKeys, changedKeys.count < values.count || previous.isEmpty)
  }

  @Test func aFileWrittenThroughADraftIsComparedEntryByEntry() throws {
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<300 { values["key \(index)"] = "value \(index)" }
    values.merge(Self.before) { $1 }
    var draft = try BinaryPropertyListDraft(values: values)
    let before = try draft.data()
    var changes: [PropertyListKey: PropertyListChange] = [:]
    for (key, value) in Self.after { changes[key] = .set(value) }
    changes["removed"] = .remove
    changes["key 5"] = .remove
    changes["key 6"] = .set("value 6")  // written again, equal
    #expect(try draft.apply(changes))
    var expected = PropertyListDocument(values: values, format: .binary)
    expected.apply(changes)
    let (read, changedKeys, comparedBytes) = try rereadSince(before, draft.data())
    #expect(comparedBytes)
    #expect(changedKeys == Self.changedKeys.union(["key 5"]))
    #expect(propertyListValuesEqual(read, expected.values))
  }

  @Test func aFileAnotherWriterRewroteIsParsedWhole() throws {
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<300 { values["key \(index)"] = "value \(index)" }
    let before = try BinaryPropertyListDraft(values: values).data()
    values["key 7"] = "seven"
    let after = try PropertyListSerialization.data(
      fromPropertyList: values.stringKeyed, format: .binary, options: 0)
    let (read, changedKeys, _) = try rereadSince(before, after)
    #expect(propertyListValuesEqual(read, values))
    #expect(changedKeys == Set(values.keys))  // against the empty `previous`: parsed whole
  }

  @Test func aKeyHeldTwiceKeepsItsFirstValueAndIsComparedOnce() throws {
    // {"a": "x", "a": "y"}: CoreFoundation keeps the first value.
    let data = BinaryPropertyListBytes.file([
      [0xD2, 1, 1, 2, 3], [0x51, UInt8(ascii: "a")], [0x51, UInt8(ascii: "x")],
      [0x51, UInt8(ascii: "y")],
    ])
    #expect(try reread(data, comparingTo: ["a": "x"]).changedKeys.isEmpty)
    let (values, changedKeys) = try reread(data, comparingTo: ["a": "y", "b": 1])
    #expect(changedKeys == ["a", "b"])
    #expect(values["a"] as? String == "x")
    #expect(values.count == 1)
  }

  @Test func aMissingOrEmptyFileRemovesEveryKey() throws {
    let previous: [PropertyListKey: Any] = ["a": 1, "b": "two"]
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let missing = PropertyListFile(url: folder.file("missing.plist"))
    var base: PropertyListSnapshot?
    let (snapshot, missingKeys) = try missing.rereadSnapshot(comparingTo: previous, since: &base)
    #expect(snapshot == nil)
    #expect(missingKeys == ["a", "b"])
    let (values, changedKeys) = try reread(Data(), comparingTo: previous)
    #expect(values.isEmpty)
    #expect(changedKeys == ["a", "b"])
  }

  @Test func aRootThatIsNoDictionaryIsStillMalformed() throws {
    let data = BinaryPropertyListBytes.file([[0xA1, 1], [0x10, 1]])
    #expect(throws: PropertyListError.self) { try reread(data, comparingTo: ["a": 1]) }
  }
}
