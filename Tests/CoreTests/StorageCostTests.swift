import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Counts of parses and writes (never times): a one-key change must not read an unchanged file.
@Suite struct StorageCostTests {
  /// A suite file of `count` string keys written with Foundation, as another program would.
  private func suite(keys count: Int, in folder: TemporaryFolder) throws -> URL {
    let url = folder.file("large.plist")
    let values = Dictionary(uniqueKeysWithValues: (0..<count).map { ("key\($0)", "value \($0)") })
    try foundationWrite(values, to: url, format: .binary)
    return url
  }

  @Test func flushesOfAnUnchangedFileParseNothing() async throws {
    try await withTemporaryFolder { folder in
      let url = try suite(keys: 1_000, in: folder)
      let defaults = PropertyListDefaults(fileURL: url)
      // The file watch, once it starts, checks the file once (a confirmation, never a parse):
      // under load that can come before this line.
      let opened = PropertyListCounters.counts(for: url)
      #expect(opened.parses == 1 && opened.writes == 0 && opened.confirmations <= 1, "\(opened)")
      for index in 0..<10 {
        defaults.set(index, forKey: "counter")
        try defaults.flush()
      }
      // synchronize() also re-reads: the file is this process's own last version.
      #expect(defaults.synchronize())
      let counts = PropertyListCounters.counts(for: url)
      #expect(counts.parses == 1 && counts.writes == 10 && counts.halfWrittenRetries == 0)
      // Within seconds of its last write a version is confirmed by its bytes, never by its
      // metadata alone: by each flush (10), by synchronize() (1), by the change notices of the
      // flushes that were not coalesced (0…10), and by the watch's first check (0 or 1).
      #expect((11...22).contains(counts.confirmations), "\(counts)")
      let stored = try foundationRead(url)
      #expect(stored.count == 1_001)
      #expect(stored["counter"] as? Int == 9)
      #expect(stored["key999"] as? String == "value 999")
    }
  }

  @Test func anotherWritersKeysAreMergedAfterOneParse() async throws {
    try await withTemporaryFolder { folder in
      let url = try suite(keys: 100, in: folder)
      let defaults = PropertyListDefaults(fileURL: url)
      defaults.set("mine", forKey: "mine")
      try defaults.flush()
      // Another writer (its own handle, nothing cached) changes one key and adds one.
      _ = try PropertyListFile(url: url).apply(["key1": .set("theirs"), "other": .set(7)])
      defaults.set("mine again", forKey: "mine")
      try defaults.flush()
      let stored = try foundationRead(url)
      #expect(stored["other"] as? Int == 7)
      #expect(stored["key1"] as? String == "theirs")
      #expect(stored["mine"] as? String == "mine again")
      #expect(defaults.persistentValue(forKey: "other") as? Int == 7)
      // Parses: the load, the other writer's, then one of this suite's (by the change notice or
      // the flush, whichever came first: the other finds the version known).
      #expect(defaults.synchronize())
      #expect(PropertyListCounters.counts(for: url).parses == 3)
    }
  }

  @Test func aChangeNoticeForThisProcessesWriteParsesNothing() async throws {
    try await withTemporaryFolder { folder in
      let url = try suite(keys: 100, in: folder)
      let defaults = PropertyListDefaults(fileURL: url)
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      defer { observation.cancel() }
      defaults.set("x", forKey: "mine")
      try defaults.flush()
      #expect(defaults.synchronize())
      #expect(PropertyListCounters.counts(for: url).parses == 1)
      // Another writer's change (its apply parses once) arrives through inotify: one parse here,
      // one notice for its key.
      _ = try PropertyListFile(url: url).apply(["key5": .set("theirs")])
      #expect(await poll { defaults.string(forKey: "key5") == "theirs" })
      #expect(defaults.synchronize())
      #expect(PropertyListCounters.counts(for: url).parses == 3)
      #expect(log.all.last == DefaultsChange(keys: ["key5"], origin: .otherProcess))
    }
  }

  @Test func valuesRoundTripExactlyInBothFormats() async throws {
    try await withTemporaryFolder { folder in
      let values: [PropertyListKey: Any] = [
        "date": Date(timeIntervalSinceReferenceDate: 694_900_766.426036),
        "data": Data([0, 1, 2, 255]), "empty data": Data(),
        "unsigned": UInt64.max, "above Int.max": UInt64(Int.max) + 1,
        "min": Int.min, "max": Int.max, "real": 0.1 + 0.2, "tiny": Double.leastNonzeroMagnitude,
        "infinity": -Double.infinity,
        "true": true, "zero": 0, "text": "é😀\u{0}<&>", "": "empty key",
        "nested": [
          "list": [1, "two", ["three": 3.5], [] as [Any]], "dictionary": [:] as [String: Any],
        ],
      ]
      for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
        // NUL only in binary: an XML property list cannot hold it (XML 1.0).
        let text = format == .binary ? "é😀\u{0}<&>" : "é😀\r<&>"
        var values = values
        values["text"] = text
        let url = folder.file("round-trip-\(format.rawValue).plist")
        var known: PropertyListSnapshot?
        try PropertyListFile(url: url).update(known: &known) { document in
          document.values = values
          document.format = format
          return true
        }
        let read = try #require(try PropertyListFile(url: url).read())
        #expect(read.format == format)
        #expect(read.values.count == values.count)
        for (key, value) in values where !(format == .xml && key == "date") {
          #expect(propertyListValuesEqual(read.values[key], value), "\(key) in \(format)")
        }
        #expect(read.values["unsigned"] as? UInt64 == UInt64.max)
        #expect(read.values["min"] as? Int == Int.min)
        // Foundation reads the same values (the file is a standard property list).
        let foundation = try foundationRead(url)
        #expect((foundation["text"] as? String) == text)
      }
      // Binary keeps every fraction of a date (XML property lists store whole seconds).
      let binary = try #require(
        try PropertyListFile(url: folder.file("round-trip-200.plist")).read())
      let date = try #require(binary.values["date"] as? Date)
      #expect(date.timeIntervalSinceReferenceDate == 694_900_766.426036)
    }
  }

  @Test(arguments: ["finder-binary.plist", "iterm2-xml.plist", "global-preferences-binary.plist"])
  func editingOneScalarGrowsAFileByAtMostTheValue(fixture: String) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file(fixture)
      try FileManager.default.copyItem(
        at: PropertyListFileTests.fixtures.appendingPathComponent(fixture), to: url)
      let before = try Data(contentsOf: url)
      let original = try #require(try PropertyListFile(url: url).read())
      let value = "edited"
      _ = try PropertyListFile(url: url).apply(["ObservableDefaultsEdit": .set(value)])
      let after = try Data(contentsOf: url)
      // The key and value themselves, plus an object reference and an offset in a binary file,
      // or the entry's markup and indentation in an XML file (whose other entries keep their
      // text).
      let entry = value.utf8.count + "ObservableDefaultsEdit".utf8.count
      let overhead =
        original.format == .xml ? "\n\t<key></key>\n\t<string></string>".utf8.count : entry
      #expect(after.count <= before.count + entry + overhead)
      let edited = try #require(try PropertyListFile(url: url).read())
      #expect(edited.format == original.format)
      #expect(edited.values.count == original.values.count + 1)
      for (key, value) in original.values {
        #expect(propertyListValuesEqual(edited.values[key], value), "\(key)")
      }
    }
  }
}
