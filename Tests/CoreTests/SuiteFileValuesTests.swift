import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A suite keeps one dictionary of every value: the version of the file it last read or wrote
/// holds none, as the file's values are memory's less the pending writes (issue 42, item 3: the
/// first re-read after the open gave the two a dictionary each, 12.6 MB more at 100,000 keys and
/// about 100 MB at 1,000,000, and the editor's memory grew 1.41–1.55× over its first paint). A
/// pending write still wins over another writer's change of its key, which it must then write.
@Suite struct SuiteFileValuesTests {
  /// How many values the suite's version of its file holds (read on the suite's queue).
  static func valuesKept(by storage: SuiteStorage) -> Int {
    storage.queue.sync { storage.disk?.document.values.count ?? -1 }
  }

  /// The string stored under `key` in `file` now.
  static func stored(_ key: String, in file: PropertyListFile) throws -> String? {
    try file.read()?.values[key] as? String
  }

  @Test func theVersionOnDiskKeepsNoValuesThroughRereadsWritesARefusalAndADelete() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try RereadCopyTests.suite(in: folder)
    let defaults = PropertyListDefaults(fileURL: file.url)
    let storage = defaults.storage
    #expect(Self.valuesKept(by: storage) == 0)
    let memory = RereadCopyTests.storage(of: storage.allValues())
    // Another writer's one-key change, read entry by entry.
    try PropertyListFile(url: file.url).write(["key 7": .set("outside")])
    #expect(defaults.synchronize())
    #expect(defaults.string(forKey: "key 7") == "outside")
    #expect(PropertyListCounters.counts(for: file.url).keysReread == 1)
    #expect(Self.valuesKept(by: storage) == 0)
    #expect(RereadCopyTests.storage(of: storage.allValues()) == memory)
    // Another writer's rewrite of the whole file, parsed whole.
    _ = try PropertyListFile(url: file.url).apply(["key 8": .set("rewritten")])
    #expect(defaults.synchronize())
    #expect(defaults.string(forKey: "key 8") == "rewritten")
    #expect(Self.valuesKept(by: storage) == 0)
    // A write of this process: the first encodes every value (the file was read, not written).
    defaults.set("mine", forKey: "key 9")
    try defaults.flush()
    #expect(try Self.stored("key 9", in: file) == "mine")
    #expect(try Self.stored("key 8", in: file) == "rewritten")
    #expect(try file.read()?.values.count == 100)
    #expect(Self.valuesKept(by: storage) == 0)
    // A value an XML file refuses, in a suite of its own: the key takes the file's value again.
    let text = PropertyListDefaults(fileURL: folder.file("text.plist"))
    text.set("kept", forKey: "small")
    try text.flush()
    text.set("a\u{1B}b", forKey: "small")
    #expect(throws: PropertyListError.self) { try text.flush() }
    #expect(text.string(forKey: "small") == "kept")
    #expect(Self.valuesKept(by: text.storage) == 0)
    // The file removed by another program: every key goes, and a write makes it again.
    try FileManager.default.removeItem(at: file.url)
    #expect(defaults.synchronize())
    #expect(defaults.storage.allValues().isEmpty)
    defaults.set("again", forKey: "key 1")
    try defaults.flush()
    #expect(try file.read()?.values.count == 1)
    #expect(try Self.stored("key 1", in: file) == "again")
    #expect(Self.valuesKept(by: storage) == 0)
  }

  /// A write of the value the suite last read, pending when another writer changes that key in
  /// the file and re-read before its flush: the write wins and is written, though it matches
  /// the file's value before the change (the flush compares with the value now in the file).
  /// Another key the other writer changed is seen.
  @Test func aPendingWriteReadOverByAnotherWritersChangeIsStillWritten() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try RereadCopyTests.suite(in: folder)
    let defaults = PropertyListDefaults(fileURL: file.url)
    let storage = defaults.storage
    // Holds the suite's queue, so the re-read asked for below runs before the write's flush.
    let gate = DispatchSemaphore(value: 0)
    storage.queue.async { gate.wait() }
    try PropertyListFile(url: file.url).write([
      "key 7": .set("outside"), "key 8": .set("outside too"),
    ])
    storage.fileDidChange()
    defaults.set("value 7", forKey: "key 7")
    gate.signal()
    try defaults.flush()
    #expect(defaults.string(forKey: "key 7") == "value 7")
    #expect(defaults.string(forKey: "key 8") == "outside too")
    #expect(try Self.stored("key 7", in: file) == "value 7")
    #expect(try Self.stored("key 8", in: file) == "outside too")
    #expect(Self.valuesKept(by: storage) == 0)
  }

  /// The heap's bytes in use after three other writers' changes of a 40,000-key suite, against
  /// after the open: a second dictionary of every value was 2^16 buckets of 48 bytes
  /// (3,145,728 bytes) more. Measured in a process of its own (`core-probe reread-memory`). The
  /// bound leaves room for the file's bytes (about 1.5 MB), which a re-read a change notice
  /// started may still hold when the heap is measured (a CI run measured 1,150,320 bytes).
  @Test func threeOutsideChangesLeaveTheHeapWhereTheOpenLeftIt() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let url = folder.file("large.plist")
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<40_000 { values["key \(index)"] = "value \(index)" }
    try BinaryPropertyListWriter.data(of: values).write(to: url)
    let result = try CoreProbe.run(["reread-memory", url.path, "3"], configHome: folder.url)
    #expect(result.status == 0, "\(result.error)")
    let bytes = result.output.split(separator: "\n").compactMap { Int($0) }
    try #require(bytes.count == 2)
    #expect(bytes[1] - bytes[0] < 2_000_000, "after the open \(bytes[0]), after \(bytes[1])")
  }

  /// The resident peak while a 40,000-key suite reads another writer's rewrite of its file (the
  /// same entries in another order, one value changed: parsed whole), less the resident memory
  /// before, and the heap's bytes in use after, against after the open. The parse built a second
  /// dictionary of every value (2^16 buckets of 48 bytes: 3,145,728 bytes) beside memory's and
  /// dropped it at the merge: a peak of 5.96–6.08 MB; keeping the changed values only,
  /// 3.33–3.45 MB (the file's bytes, both versions' entries and the check that no key is held
  /// twice). Measured in a process of its own (`core-probe rewrite-memory`).
  @Test func aRewriteParsedWholeBuildsNoSecondDictionaryOfEveryValue() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let (url, rewrite) = (folder.file("large.plist"), folder.file("rewrite.plist"))
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<40_000 { values["key \(index)"] = "value \(index)" }
    let data = try BinaryPropertyListWriter.data(of: values)
    try data.write(to: url)
    // Another capacity, so another order: the entries move.
    var rewritten = [PropertyListKey: Any](minimumCapacity: 400_000)
    rewritten.merge(values) { first, _ in first }
    rewritten["key 1"] = "rewritten"
    let rewriteData = try BinaryPropertyListWriter.data(of: rewritten)
    try rewriteData.write(to: rewrite)
    let open = try BinaryPropertyListScanner.value(releasingPagesOf: data, keepingEntries: true)
    let entries = try #require(open.entries)
    #expect(
      try BinaryPropertyListScanner.changes(of: rewriteData, since: entries, previous: values)
        == nil)
    let result = try CoreProbe.run(
      ["rewrite-memory", url.path, rewrite.path], configHome: folder.url)
    #expect(result.status == 0, "\(result.error)")
    let bytes = result.output.split(separator: "\n").compactMap { Int($0) }
    try #require(bytes.count == 3)
    #expect(bytes[1] < 4_500_000, "resident peak of the re-read \(bytes[1]); heap \(bytes)")
    #expect(bytes[2] - bytes[0] < 2_000_000, "after the open \(bytes[0]), after \(bytes[2])")
  }
}
