import Foundation
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Keys that differ only in Unicode normalization (`é` as U+00E9 and as `e` U+0301) are two
/// keys of a suite, as in the file, python's `plistlib`, CoreFoundation and Apple's Foundation:
/// Swift's `String` equality (canonical equivalence) must never merge them.
@Suite(.serialized) struct ExactKeyTests {
  private static let composed = PythonPlistlib.composed
  private static let decomposed = PythonPlistlib.decomposed

  /// A suite file holding both forms, written by `plistlib` (the composed form holds
  /// `composed`, the decomposed one `decomposed`).
  private func bothForms(in folder: TemporaryFolder, binary: Bool) throws -> URL {
    let url = folder.file(binary ? "binary.plist" : "xml.plist")
    try PythonPlistlib.write(
      [(Self.composed, "composed"), (Self.decomposed, "decomposed")], to: url, binary: binary)
    return url
  }

  /// What `plistlib` reads from a file holding both forms with these values, and `other`.
  private func expected(composed: String, decomposed: String, other: String? = nil) -> String {
    let entries =
      ["('e\\u0301', '\(decomposed)')"] + (other.map { ["('other', '\($0)')"] } ?? [])
      + ["('\\xe9', '\(composed)')"]
    return "[" + entries.joined(separator: ", ") + "]"
  }

  /// Expects `plistlib` to read both forms with the values ``bothForms(in:binary:)`` wrote, and
  /// `other` holding `value`.
  private func expectBothFormsBeside(other value: String, in url: URL) throws {
    #expect(
      try PythonPlistlib.read(url)
        == expected(composed: "composed", decomposed: "decomposed", other: value))
  }

  @Test(arguments: [true, false])
  func writingAnotherKeyKeepsBothForms(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = try bothForms(in: folder, binary: binary)
      let defaults = PropertyListDefaults(fileURL: url)
      #expect(defaults.exactPersistentValues.count == 2)
      defaults.set("x", forKey: "other")
      try defaults.flush()
      try expectBothFormsBeside(other: "x", in: url)
    }
  }

  @Test(arguments: [true, false])
  func writingEachFormChangesOnlyItsEntryAndTellsExactlyThatKey(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = try bothForms(in: folder, binary: binary)
      let defaults = PropertyListDefaults(fileURL: url)
      let told = LockedChanges()
      let observation = defaults.observe { told.append($0) }
      defer { observation.cancel() }
      #expect(defaults.string(forKey: Self.composed) == "composed")
      #expect(defaults.string(forKey: Self.decomposed) == "decomposed")

      defaults.set("c2", forKey: Self.composed)
      try defaults.flush()
      #expect(try PythonPlistlib.read(url) == expected(composed: "c2", decomposed: "decomposed"))
      #expect(defaults.string(forKey: Self.decomposed) == "decomposed")
      defaults.set("d2", forKey: Self.decomposed)
      try defaults.flush()
      #expect(try PythonPlistlib.read(url) == expected(composed: "c2", decomposed: "d2"))
      #expect(defaults.string(forKey: Self.composed) == "c2")

      let changes = told.all
      #expect(
        changes.map(\.exactKeys) == [
          [PropertyListKey(Self.composed)], [PropertyListKey(Self.decomposed)],
        ])
      #expect(changes.first?.contains(Self.decomposed) == false)
      #expect(changes.last?.contains(Self.composed) == false)
    }
  }

  @Test(arguments: [true, false])
  func aNewProcessReadsEachFormBackExactly(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = try bothForms(in: folder, binary: binary)
      #expect(try CoreProbe.run(["try-write", url.path, Self.decomposed, "d2"]).status == 0)
      let composed = try CoreProbe.run(["get", url.path, Self.composed])
      let decomposed = try CoreProbe.run(["get", url.path, Self.decomposed])
      #expect(composed.output == "composed\n")
      #expect(decomposed.output == "d2\n")
      #expect(try PythonPlistlib.read(url) == expected(composed: "composed", decomposed: "d2"))
    }
  }

  @Test(arguments: [true, false])
  func anotherWritersChangeOfOneFormIsReadAsExactlyThatKey(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = try bothForms(in: folder, binary: binary)
      let defaults = PropertyListDefaults(fileURL: url)
      defaults.set("x", forKey: "other")
      try defaults.flush()
      let told = LockedChanges()
      let observation = defaults.observe { told.append($0) }
      defer { observation.cancel() }
      // Another process (our own writer, so the file keeps its layout and is re-read entry by
      // entry) changes the decomposed form only.
      #expect(try CoreProbe.run(["try-write", url.path, Self.decomposed, "d3"]).status == 0)
      #expect(await poll { defaults.string(forKey: Self.decomposed) == "d3" })
      #expect(defaults.string(forKey: Self.composed) == "composed")
      // The value is read before the watcher's notification reaches the observer.
      #expect(await poll { !told.all.isEmpty })
      #expect(told.all.map(\.exactKeys) == [[PropertyListKey(Self.decomposed)]])
      #expect(told.all.map(\.origin) == [.otherProcess])
    }
  }

  /// A new file is encoded whole (XML: Foundation's encoder, which keys by `String`, writes one
  /// form and the other is added to its text).
  @Test func aNewXMLFileHoldsBothForms() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("new.plist")
      // Assigned one by one: a literal holding two equal keys traps.
      var changes: [PropertyListKey: PropertyListChange] = ["other": .set("x")]
      changes[PropertyListKey(Self.composed)] = .set("composed")
      changes[PropertyListKey(Self.decomposed)] = .set("decomposed")
      _ = try PropertyListFile(url: url).apply(changes)
      #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).hasPrefix("<?xml"))
      try expectBothFormsBeside(other: "x", in: url)
    }
  }

  @Test(arguments: [true, false])
  func aValueInTheOtherFormIsAChangeThatReachesTheFile(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("values.plist")
      try PythonPlistlib.write([("k", Self.composed)], to: url, binary: binary)
      let defaults = PropertyListDefaults(fileURL: url)
      let told = LockedChanges()
      let observation = defaults.observe { told.append($0) }
      defer { observation.cancel() }
      defaults.set(Self.decomposed, forKey: "k")
      try defaults.flush()
      #expect(try PythonPlistlib.read(url) == #"[('k', 'e\u0301')]"#)
      #expect(told.all.map(\.exactKeys) == [["k"]])
    }
  }

  /// Another program rewrites the XML suite in place with a shorter text (one `pwrite`, then
  /// `ftruncate`, as python's `os.pwrite` and `os.ftruncate` do) while our writer writes another
  /// key: between the two calls the file is the new text and the old one's tail. Foundation's
  /// parser ignores what follows `</plist>` and keys its dictionary by `String`, so the writer
  /// read one form where the file holds two and wrote the merged document (storage-torture
  /// seed 2028, step 2867: values moved between the two forms). The writer reads it again after
  /// its pauses, and refuses it while it stays so; once cut, the write keeps both forms.
  @Test func aWriterNeverTakesAFileCutShortInPlaceForItsNewTextMerged() async throws {
    try await withTemporaryFolder { folder in
      let url = try bothForms(in: folder, binary: false)
      let new = try Data(contentsOf: url)
      // The version before held a longer value: its tail follows the new text's `</plist>`.
      try PythonPlistlib.write(
        [(Self.composed, "composed"), (Self.decomposed, "decomposed"), ("long", "a long value")],
        to: url, binary: false)
      let halfWritten = new + (try Data(contentsOf: url))[new.count...]
      try expectAWriterWaitsForTheCut(of: url, holding: halfWritten, to: new.count)
      try expectBothFormsBeside(other: "x", in: url)
    }
  }

  /// A key renamed to its other form in normalisation is one write of two keys: `write(_:)` by
  /// exact key (a `[String: Any?]` holds only one of them).
  @Test(arguments: [true, false])
  func aKeyRenamedToItsOtherFormIsOneWriteOfBothKeys(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("rename.plist")
      try PythonPlistlib.write([(Self.composed, "v"), ("other", "x")], to: url, binary: binary)
      let defaults = PropertyListDefaults(fileURL: url)
      var rename: [PropertyListKey: Any?] = [:]
      rename.updateValue(nil, forKey: PropertyListKey(Self.composed))
      rename[PropertyListKey(Self.decomposed)] = "v"
      try defaults.write(rename)
      try defaults.flush()
      #expect(try PythonPlistlib.read(url) == #"[('e\u0301', 'v'), ('other', 'x')]"#)
      #expect(
        Set(defaults.exactPersistentValues.keys) == [PropertyListKey(Self.decomposed), "other"])
    }
  }

  @Test func keysAreComparedByTheirScalars() {
    let (composed, decomposed) = (PropertyListKey(Self.composed), PropertyListKey(Self.decomposed))
    #expect(Self.composed == Self.decomposed)  // Swift's `String`: canonical equivalence.
    #expect(composed != decomposed)
    #expect(Set([composed, decomposed]).count == 2)
    #expect(decomposed < composed)
    var both: [PropertyListKey: Int] = [:]
    (both[composed], both[decomposed]) = (1, 2)
    #expect(both.count == 2)
    let merged = both.stringKeyed
    #expect(merged.count == 1)
    #expect(merged.keys.first.map { Array($0.unicodeScalars) } == Array("e\u{301}".unicodeScalars))
  }

  /// Keys order by their UTF-8 bytes (code point order), compared with `memcmp`: every pair of
  /// keys here (empty, one a prefix of the other, small and heap strings, bytes above 0x7F, a
  /// bridged `NSString`) orders as their `UTF8View`s do.
  @Test func keysOrderByTheirUTF8Bytes() {
    let texts = [
      "", "a", "ab", "abc", "B", "Z", "e\u{301}", "\u{E9}", "\u{FFFF}", "🎹", "key-000001",
      "key-000002", "key-0000010", String(repeating: "x", count: 40),
      String(repeating: "x", count: 40) + "y", NSString(string: "bridged é") as String,
      "bridged é", "\u{7F}", "\u{80}",
    ]
    var pairs = 0
    for left in texts {
      for right in texts {
        #expect(
          (PropertyListKey(left) < PropertyListKey(right))
            == left.utf8.lexicographicallyPrecedes(right.utf8), "\(left) < \(right)")
        pairs += 1
      }
    }
    #expect(pairs == 361)
  }

  /// `sortByScalars()` (16 leading bytes as two integers, the keys compared where those tie)
  /// orders keys as `sort()` does: 3,000 distinct keys of 0 to 40 scalars drawn from a few
  /// (NUL, ASCII, two-, three- and four-byte ones) after shared starts of 0, 15, 16 and 17
  /// bytes, so that many tie in their first 16 bytes or end inside them.
  @Test func sortingByLeadingBytesOrdersAsComparingTheKeys() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let scalars = ["\u{0}", "a", "b", "z", "é", "\u{E9}\u{301}", "€", "🎹", "-", "0"]
    let starts = [
      "", String(repeating: "s", count: 15), String(repeating: "s", count: 16),
      String(repeating: "s", count: 17),
    ]
    var keys = Set<PropertyListKey>()
    while keys.count < 3_000 {
      let text = (0..<next(41)).map { _ in scalars[next(scalars.count)] }.joined()
      keys.insert(PropertyListKey(starts[next(starts.count)] + text))
    }
    var sorted = Array(keys)
    sorted.sortByScalars()
    #expect(sorted == Array(keys).sorted())
    var one = [PropertyListKey("only")]
    one.sortByScalars()
    #expect(one == ["only"])
  }
}

/// The changes an observer was told, in order.
private final class LockedChanges: @unchecked Sendable {
  private let lock = NSLock()
  private var changes: [DefaultsChange] = []

  func append(_ change: DefaultsChange) {
    lock.withLock { changes.append(change) }
  }

  var all: [DefaultsChange] {
    lock.withLock { changes }
  }
}
