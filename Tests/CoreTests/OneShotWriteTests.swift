import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A process that writes a few keys and exits (`PropertyListFile.write`, which
/// `settings-editor write` uses) does work in proportion to the keys it changes: counts of keys
/// encoded, parses and bytes copied, never times.
@Suite struct OneShotWriteTests {
  /// A suite of `count` string keys written by Foundation, as another program would.
  private func suite(
    keys count: Int, format: PropertyListSerialization.PropertyListFormat,
    in folder: TemporaryFolder
  ) throws -> (url: URL, values: [String: Any]) {
    let url = folder.file("suite-\(format.rawValue).plist")
    let values = Dictionary(
      uniqueKeysWithValues: (0..<count).map { ("key\($0)", "value \($0)" as Any) })
    try foundationWrite(values, to: url, format: format)
    return (url, values)
  }

  /// What our reader and Foundation's read from `url`; both must equal `expected`.
  private func expectStored(_ expected: [String: Any], at url: URL) throws {
    let ours = try #require(try PropertyListFile(url: url).read()).values
    #expect(ours.count == expected.count)
    #expect(propertyListValuesEqual(ours, [PropertyListKey: Any](exactKeys: expected)))
    let foundation = try foundationRead(url)
    #expect(foundation.count == expected.count)
    #expect(propertyListValuesEqual(foundation, expected))
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func oneKeyIsEncodedAndNothingIsParsed(
    format: PropertyListSerialization.PropertyListFormat
  ) async throws {
    try await withTemporaryFolder { folder in
      var (url, values) = try suite(keys: 10_000, format: format, in: folder)
      let spliced = try PropertyListFile(url: url).write(["key5": .set("changed")])
      #expect(spliced)
      let counts = PropertyListCounters.counts(for: url)
      #expect(counts.parses == 0 && counts.writes == 1 && counts.keysEncoded == 1, "\(counts)")
      if format == .binary {
        // Every object of the file but its top dictionary, copied as it was.
        #expect(counts.bytesCopied > 10_000 * 10, "\(counts)")
      }
      values["key5"] = "changed"
      try expectStored(values, at: url)
    }
  }

  /// The work of a one-shot write of one key is the same exact counts at 1,000 and 20,000 keys:
  /// no parse, one value decoded (the key's value before) and one encoded; the other keys are
  /// only checked, in the scan's one pass.
  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func theCountsOfAOneKeyWriteDoNotGrowWithTheSuite(
    format: PropertyListSerialization.PropertyListFormat
  ) async throws {
    try await withTemporaryFolder { folder in
      var seen: [PropertyListCounters.Counts] = []
      for keys in [1_000, 20_000] {
        let url = folder.file("suite-\(keys).plist")
        let values = Dictionary(
          uniqueKeysWithValues: (0..<keys).map { ("key\($0)", "value \($0)" as Any) })
        try foundationWrite(values, to: url, format: format)
        #expect(try PropertyListFile(url: url).write(["key5": .set("changed")]))
        var counts = PropertyListCounters.counts(for: url)
        counts.bytesCopied = 0
        seen.append(counts)
        #expect(try PropertyListFile(url: url).read()?.values["key5"] as? String == "changed")
      }
      #expect(seen[0] == seen[1], "\(seen)")
      #expect(seen[0].parses == 0 && seen[0].valuesDecoded == 1 && seen[0].keysEncoded == 1)
      #expect(seen[0].writes == 1, "\(seen)")
    }
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func keysAreAddedRemovedAndLeftAlone(format: PropertyListSerialization.PropertyListFormat)
    async throws
  {
    try await withTemporaryFolder { folder in
      var (url, values) = try suite(keys: 1_000, format: format, in: folder)
      let file = PropertyListFile(url: url)
      let changes: [PropertyListKey: PropertyListChange] = [
        "key0": .remove, "key999": .remove, "new": .set(["nested": [1, 2.5, true]]),
        "key7": .set(Data([0, 1, 2])), "absent": .remove,
      ]
      #expect(try file.write(changes))
      values["key0"] = nil
      values["key999"] = nil
      values["new"] = ["nested": [1, 2.5, true]]
      values["key7"] = Data([0, 1, 2])
      try expectStored(values, at: url)
      // The same values again change nothing: the file is not written.
      let writes = PropertyListCounters.counts(for: url).writes
      #expect(try file.write(["key7": .set(Data([0, 1, 2])), "key0": .remove]))
      #expect(PropertyListCounters.counts(for: url).writes == writes)
    }
  }

  /// Keys compared by their bytes: a precomposed "é" and a decomposed one stay two keys, and a
  /// key stored in UTF-16 is found.
  @Test func keysDifferingOnlyInNormalizationStayApart() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("unicode.plist")
      let composed = PropertyListKey("caf\u{E9}")
      let decomposed = PropertyListKey("cafe\u{301}")
      var written: PropertyListSnapshot?
      try PropertyListFile(url: url).update(known: &written) { document in
        document = PropertyListDocument(
          values: [composed: "one", decomposed: "two", "plain": 1], format: .binary)
        return true
      }
      #expect(try PropertyListFile(url: url).write([decomposed: .set("changed")]))
      let values = try #require(try PropertyListFile(url: url).read()).values
      #expect(values.count == 3)
      #expect(values[composed] as? String == "one")
      #expect(values[decomposed] as? String == "changed")
    }
  }

  /// A key held twice (the first value is the one read) is not spliced: the file is written
  /// whole, with one entry.
  /// A binary splice writes the file's objects from the bytes it read, not from a copy: their
  /// piece lies in the input's own memory, and the pieces together are the file every reader
  /// reads. Foundation writes the top dictionary first, so the bytes kept are two pieces (the
  /// header, and the objects after the old top dictionary); a splice writes it last, so the
  /// next splice keeps one.
  @Test func aBinarySpliceWritesTheFilesObjectsFromItsOwnBytes() throws {
    let values = Dictionary(
      uniqueKeysWithValues: (0..<1_000).map { ("key\($0)", "value \($0)" as Any) })
    var data = try PropertyListSerialization.data(
      fromPropertyList: values, format: .binary, options: 0)
    for keptPieces in [2, 1] {
      let outcome = try BinaryPropertyListSplice.applying(
        ["key5": .set("changed \(keptPieces)")], to: data)
      guard case .spliced(let pieces, _, _, _)? = outcome else {
        Issue.record("not spliced: \(String(describing: outcome))")
        return
      }
      #expect(pieces.count == keptPieces + 1)
      // The objects' piece (the header alone, 8 bytes, is held inline by `Data`).
      let objects = try #require(pieces.prefix(keptPieces).max { $0.count < $1.count })
      #expect(objects.count > data.count / 2)
      data.withUnsafeBytes { file in
        let memory = file.baseAddress!..<(file.baseAddress! + file.count)
        objects.withUnsafeBytes {
          #expect(
            memory.contains($0.baseAddress!) && $0.baseAddress! + $0.count <= memory.upperBound)
        }
      }
      data = Data(pieces.joined())
      let read = try PropertyListSerialization.propertyList(from: data, format: nil)
      #expect((read as? [String: Any])?.count == 1_000)
      #expect((read as? [String: Any])?["key5"] as? String == "changed \(keptPieces)")
    }
  }

  @Test func aKeyHeldTwiceIsWrittenWhole() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("twice.plist")
      // bplist00 with a dictionary {"a": 1, "a": 2}: objects 0 (dict), 1 ("a"), 2 (1), 3 (2).
      var bytes = Array("bplist00".utf8)
      let offsets = [8, 13, 15, 17]
      bytes += [0xD2, 1, 1, 2, 3, 0x51, 0x61, 0x10, 1, 0x10, 2]
      let table = bytes.count
      bytes += offsets.map { UInt8($0) }
      bytes +=
        [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8)
      bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
      try Data(bytes).write(to: url)
      #expect(try PropertyListFile(url: url).read()?.values["a"] as? Int == 1)
      #expect(try PropertyListFile(url: url).write(["a": .remove]) == false)
      #expect(try PropertyListFile(url: url).read()?.values.isEmpty == true)
    }
  }

  /// A value rewritten again and again: the splices leave its old bytes behind, until they
  /// would pass a quarter of the file; then the file is written whole, without them.
  @Test func unreferencedBytesStayBelowAQuarterOfTheFile() async throws {
    try await withTemporaryFolder { folder in
      let (url, _) = try suite(keys: 1_000, format: .binary, in: folder)
      let file = PropertyListFile(url: url)
      func size() throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
      }
      _ = try file.apply(["big": .set(Data(repeating: 1, count: 2_000))])
      let compact = try size()
      var wholeWrites = 0
      for round in 0..<12 {
        let value = Data(repeating: UInt8(round), count: 2_000)
        if try !file.write(["big": .set(value)]) { wholeWrites += 1 }
        #expect(try size() <= (compact + 4096) * 4 / 3 + 64, "round \(round)")
        #expect(try file.read()?.values["big"] as? Data == value)
      }
      #expect((1...6).contains(wholeWrites), "\(wholeWrites)")
    }
  }

  /// A watching process re-reads a spliced file entry by entry, from the first change after it
  /// opened the suite on: each re-read decodes the one entry that changed, not the 10,000 keys
  /// (the splice keeps every other entry at its place, and the first read kept the entries).
  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func theWatchersReReadsDecodeOnlyTheChangedEntry(
    format: PropertyListSerialization.PropertyListFormat
  ) async throws {
    try await withTemporaryFolder { folder in
      let (url, _) = try suite(keys: 10_000, format: format, in: folder)
      let defaults = PropertyListDefaults(fileURL: url)
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      defer { observation.cancel() }
      #expect(defaults.persistentValue(forKey: "key3") as? String == "value 3")
      #expect(PropertyListCounters.counts(for: url).keysReread == 0)
      for (round, key) in ["key3", "key4"].enumerated() {
        #expect(try PropertyListFile(url: url).write([PropertyListKey(key): .set("\(round)")]))
        #expect(defaults.synchronize())
        #expect(defaults.persistentValue(forKey: key) as? String == "\(round)")
        #expect(PropertyListCounters.counts(for: url).keysReread == round + 1, "round \(round)")
        #expect(await poll { log.all.count == round + 1 })
        #expect(log.all.last == DefaultsChange(keys: [key], origin: .otherProcess))
      }
      #expect(defaults.persistentValue(forKey: "key3") as? String == "0")
      #expect(defaults.storage.allValues().count == 10_000)
    }
  }
}
