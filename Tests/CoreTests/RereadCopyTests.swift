import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A re-read of another writer's one-key change changes the last snapshot and memory's values in
/// place: no copy of the whole dictionary (issue 42, item 6: each change of a 100,000-key suite
/// copied a 12.6 MB dictionary, and a reader grew 20–33 % over 100 changes). The storage of a
/// dictionary is its one word: the same word after the re-read is the same storage (a copy is
/// made while the original lives, so it never gets the original's address).
@Suite struct RereadCopyTests {
  /// The address of the storage of `values`.
  static func storage(of values: [PropertyListKey: Any]) -> UInt {
    unsafeBitCast(values, to: UInt.self)
  }

  /// A binary suite of 100 keys in `folder`.
  static func suite(in folder: TemporaryFolder) throws -> PropertyListFile {
    let file = PropertyListFile(url: folder.file("reread.plist"))
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<100 { values["key \(index)"] = "value \(index)" }
    try BinaryPropertyListWriter.data(of: values).write(to: file.url)
    return file
  }

  @Test func aRereadChangesTheLastSnapshotInPlace() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try Self.suite(in: folder)
    // Another writer that keeps the objects of the file it wrote: its later writes add only
    // their changes, the entries of the file stay where they are.
    let writer = PropertyListFile(url: file.url)
    var written: PropertyListSnapshot?
    _ = try writer.apply(["key 7": .set("start")], known: &written)
    var known: PropertyListSnapshot?
    known = try file.rereadSnapshot(comparingTo: [:], since: &known).snapshot
    #expect(known?.state.entries != nil)
    let before = Self.storage(of: try #require(known?.document.values))
    for round in 0..<3 {
      _ = try writer.apply(["key 7": .set("changed \(round)")], known: &written)
      let (snapshot, changedKeys) = try file.rereadSnapshot(comparingTo: [:], since: &known)
      known = snapshot
      #expect(changedKeys == ["key 7"])
      #expect(known?.document.values["key 7"] as? String == "changed \(round)")
      #expect(Self.storage(of: try #require(known?.document.values)) == before)
    }
  }

  @Test func aRereadChangesMemorysValuesInPlace() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try Self.suite(in: folder)
    let defaults = PropertyListDefaults(fileURL: file.url)
    #expect(defaults.string(forKey: "key 7") == "value 7")
    let before = Self.storage(of: defaults.storage.allValues())
    for round in 0..<3 {
      _ = try PropertyListFile(url: file.url).apply(["key 7": .set("changed \(round)")])
      #expect(defaults.synchronize())
      #expect(defaults.string(forKey: "key 7") == "changed \(round)")
      #expect(Self.storage(of: defaults.storage.allValues()) == before)
    }
  }
}
