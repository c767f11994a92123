import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Files written by adding changes to the draft of the previous version read back exactly, in
/// our reader and Foundation's, and stay small.
@Suite struct BinaryPropertyListDraftTests {
  private static let strings = ["", "a", "shared value", "Grüße 🎹", "long enough to need a length"]

  private func randomValue(_ random: inout SeededGenerator, depth: Int = 0) -> Any {
    switch Int.random(in: 0..<(depth < 2 ? 9 : 7), using: &random) {
    case 0: return Self.strings.randomElement(using: &random)!
    case 1: return "value \(Int.random(in: 0..<1_000, using: &random))"
    case 2: return Int.random(in: -1_000...100_000, using: &random)
    case 3: return Bool.random(using: &random)
    case 4: return Double(Int.random(in: 0..<100, using: &random)) / 8
    case 5:
      return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<1_000, using: &random)))
    case 6: return Data((0..<Int.random(in: 0..<20, using: &random)).map { UInt8($0) })
    case 7:
      return (0..<Int.random(in: 0..<4, using: &random)).map { _ in
        randomValue(&random, depth: depth + 1)
      }
    default:
      return Dictionary(
        uniqueKeysWithValues: (0..<Int.random(in: 0..<4, using: &random)).map {
          ("k\($0)", randomValue(&random, depth: depth + 1))
        })
    }
  }

  private func expectReadsBack(_ data: Data, as values: [PropertyListKey: Any]) throws {
    let ours = try PropertyListFile(url: URL(fileURLWithPath: "/draft.plist")).document(from: data)
    #expect(ours.format == .binary)
    #expect(propertyListValuesEqual(ours.values, values))
    let foundations = try PropertyListSerialization.propertyList(from: data, format: nil)
    #expect(propertyListValuesEqual(PropertyListValue.normalized(foundations), values))
  }

  @Test func randomChangesReadBackExactlyAndTheDraftIsMadeAgainWhenUnusedObjectsGrow() throws {
    var random = SeededGenerator(seed: 11)
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<200 { values["key \(index)"] = randomValue(&random) }
    var draft = try BinaryPropertyListDraft(values: values)
    var incremental = 0
    var remade = 0
    for round in 0..<400 {
      var changes: [PropertyListKey: PropertyListChange] = [:]
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let key = "key \(Int.random(in: 0..<260, using: &random))"
        changes[key] =
          Int.random(in: 0..<4, using: &random) == 0 ? .remove : .set(randomValue(&random))
      }
      var document = PropertyListDocument(values: values, format: .binary)
      document.apply(changes)
      values = document.values
      if try draft.apply(changes) {
        incremental += 1
      } else {
        draft = try BinaryPropertyListDraft(values: values)
        remade += 1
      }
      let data = try draft.data()
      try expectReadsBack(data, as: values)
      // The writer's entries are the reader's: a re-read compares them.
      let read = try #require(
        try BinaryPropertyListScanner.value(of: data, comparingTo: [:]).entries)
      let written = draft.entries()
      #expect(written.keys == read.keys && written.fingerprints == read.fingerprints)
      let fresh = try BinaryPropertyListDraft(values: values).data()
      // Unreferenced objects stay below about a third of what the values need.
      #expect(data.count <= fresh.count * 3 / 2 + 8192, "round \(round)")
    }
    #expect(incremental > 300)
    #expect(remade > 0)
  }

  @Test func oneValueEditGrowsTheFileByTheValueAndOneOffset() throws {
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<1_000 { values["key \(index)"] = "value \(index) xxxxxxxxxx" }
    var draft = try BinaryPropertyListDraft(values: values)
    let before = try draft.data().count
    #expect(try draft.apply(["key 7": .set("a new value of 24 bytes.")]))
    let after = try draft.data()
    // The string object (marker, length, 24 bytes) and one 2-byte offset.
    #expect(after.count - before == 1 + 1 + 1 + 24 + 2)
    values["key 7"] = "a new value of 24 bytes."
    try expectReadsBack(after, as: values)
  }

  @Test func aSuitesFlushesWriteThroughTheDraftUntilAnotherWriterChangesTheFile() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = PropertyListFile(url: folder.file("draft.plist"))
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<100 { values["key \(index)"] = index }
    try BinaryPropertyListWriter.data(of: values).write(to: file.url)
    var known: PropertyListSnapshot?
    #expect(try file.apply(["key 1": .set("one")], known: &known))
    #expect(known?.state.draft != nil)
    #expect(try !file.apply(["key 2": .set("two"), "new": .set(true)], known: &known))
    #expect(known?.state.draft != nil)
    // Another writer: the next flush reads the file and makes a new draft from what it holds.
    _ = try PropertyListFile(url: file.url).apply(["other": .set("theirs")])
    #expect(try file.apply(["key 3": .remove], known: &known))
    values["key 1"] = "one"
    values["key 2"] = "two"
    values["new"] = true
    values["other"] = "theirs"
    values["key 3"] = nil
    try expectReadsBack(try Data(contentsOf: file.url), as: values)
    #expect(propertyListValuesEqual(known?.document.values, values))
  }
}
