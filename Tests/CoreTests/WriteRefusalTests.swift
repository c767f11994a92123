import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Writes no reader could read back are refused before they are acknowledged, with an error that
/// names the key, and the file stays as it was (issue 37, items 3, 9 and 11).
@Suite struct WriteRefusalTests {
  static let formats: [PropertyListSerialization.PropertyListFormat] = [.binary, .xml]

  /// A suite of `format` holding `small` = `kept`, and its bytes.
  private func suite(
    _ format: PropertyListSerialization.PropertyListFormat, in folder: TemporaryFolder
  )
    throws -> (url: URL, bytes: Data)
  {
    let url = folder.file("suite.plist")
    try foundationWrite(["small": "kept"], to: url, format: format)
    return (url, try Data(contentsOf: url))
  }

  /// The size a refusal names: `it would make the file N bytes, above …`.
  private func refusedSize(_ reason: String) -> Int? {
    guard let match = reason.firstMatch(of: /would make the file (\d+) bytes/) else { return nil }
    return Int(match.1)
  }

  /// A refusal stays the last error until a write succeeds or the file's bytes change: a
  /// re-read of a suite that had no file, and still has none, changes nothing (it cleared the
  /// error, so a settings object's refused write lost it to any re-read, e.g. one started by
  /// another file's change in the folder).
  @Test func aRefusalStaysTheLastErrorWhileTheSuiteStillHasNoFile() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("absent.plist")
    let defaults = PropertyListDefaults(fileURL: url)
    defaults.set(NSObject(), forKey: "k")
    #expect(defaults.lastError?.kind == .invalidValue(key: "k"))
    #expect(defaults.synchronize())
    #expect(defaults.lastError?.kind == .invalidValue(key: "k"))
    #expect(!FileManager.default.fileExists(atPath: url.path))
    defaults.set("v", forKey: "k")
    #expect(defaults.synchronize())
    #expect(defaults.lastError == nil, "a write that succeeds clears it")
  }

  @Test(arguments: formats)
  func aWriteThatWouldMakeTheFileTooLargeToReadIsRefusedNamingTheKeyAndTheSizes(
    _ format: PropertyListSerialization.PropertyListFormat
  ) async throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(format, in: folder)
    let defaults = PropertyListDefaults(fileURL: url)
    // Data: 256 MiB in binary; in XML, 192 MiB, which Base64 makes more than 256 MiB.
    let byteCount = format == .binary ? FileContents.maximumSize : FileContents.maximumSize / 4 * 3
    defaults.set(Data(count: byteCount), forKey: "big")
    let error = try #require(throws: PropertyListError.self) { try defaults.flush() }
    #expect(error.kind == .invalidValue(key: "big"))
    let size = try #require(refusedSize(error.reason))
    #expect((FileContents.maximumSize + 1)...(FileContents.maximumSize + 100 << 20) ~= size)
    #expect(
      error.reason
        == "it would make the file \(size) bytes, above the 268435456 bytes (256 MiB) a reader "
        + "reads; nothing was written")
    #expect(try Data(contentsOf: url) == before)
    #expect(defaults.lastError == error)
    // The refused value is dropped: the suite stays readable and writable.
    #expect(defaults.data(forKey: "big") == nil)
    defaults.set("more", forKey: "other")
    try defaults.flush()
    #expect(try PythonPlistlib.strings(url) == ["small": "kept", "other": "more"])
  }

  @Test func aWriteOfSeveralKeysTooLargeToReadNamesThemAll() throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(.binary, in: folder)
    let half = Data(count: FileContents.maximumSize / 2)
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(url: url).apply(["b": .set(half), "a": .set(half + [1])])
    }
    #expect(error.kind == .unwritable)
    #expect(error.reason.hasPrefix("writing a, b would make the file "))
    #expect(try Data(contentsOf: url) == before)
  }

  /// Characters XML 1.0 cannot hold, in a value, nested in a value and in a key, and dates
  /// outside the years of XML's date text (CoreFoundation writes `-314887-08-14T06:13:20Z` for
  /// −10¹³ s, and `…T24:60:-2147483648Z` for a date that is not finite).
  static var unholdable: [(changes: [String: Any], key: String, reason: String)] {
    let binary = "a binary property list can hold it (plutil -convert binary1 converts the file)"
    let character = ", a character an XML property list cannot hold (XML 1.0); " + binary
    let year = ", outside the years 0–999999 an XML property list's date holds; " + binary
    return [
      (["esc": "a\u{1B}b"], "esc", "it holds U+001B" + character),
      (["nul": "\u{0}"], "nul", "it holds U+0000" + character),
      (
        ["nested": ["list": ["fine", "\u{FFFE}"]]], "nested",
        "it holds U+FFFE at list / [1]" + character
      ),
      (["key\u{1}": "fine"], "key\u{1}", "it holds U+0001" + character),
      // A value of a type other than the canonical one (`NSString`), as the writer takes it.
      (["ns": NSString(string: "a\u{1B}b")], "ns", "it holds U+001B" + character),
      (
        ["when": Date(timeIntervalSinceReferenceDate: -1e13)], "when",
        "it holds the date -10000000000000.0 s from 2001-01-01T00:00:00Z" + year
      ),
      (
        ["dates": [Date(timeIntervalSinceReferenceDate: 1e300)]], "dates",
        "it holds the date 1e+300 s from 2001-01-01T00:00:00Z at [0]" + year
      ),
    ]
  }

  @Test(arguments: 0..<7)
  func anXMLSuiteRefusesWhatXMLCannotHoldNamingTheKeyAndABinaryOneKeepsIt(_ index: Int) throws {
    let (changes, key, reason) = Self.unholdable[index]
    let folder = try TemporaryFolder()
    let (url, before) = try suite(.xml, in: folder)
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(url: url).apply(changes.mapValues { .set($0) })
    }
    #expect(error.kind == .invalidValue(key: key))
    #expect(error.reason == reason)
    #expect(try Data(contentsOf: url) == before)
    // A binary suite holds them, and reads them back.
    let binary = folder.file("binary.plist")
    try foundationWrite(["small": "kept"], to: binary, format: .binary)
    let written = try PropertyListFile(url: binary).apply(changes.mapValues { .set($0) })
    #expect(propertyListValuesEqual(written.values[key], changes[key]))
    #expect(propertyListValuesEqual(try foundationRead(binary)[key], changes[key]))
  }

  /// A date that is not a finite time: a binary file holds it, but the readers here refuse
  /// the file (`is a date that is not a finite time`), so every write refuses it, naming the key.
  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func aDateThatIsNotAFiniteTimeIsRefusedInEitherFormat(
    _ format: PropertyListSerialization.PropertyListFormat
  ) throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(format, in: folder)
    for seconds in [Double.nan, .infinity, -.infinity] {
      let error = try #require(throws: PropertyListError.self) {
        try PropertyListFile(url: url).apply([
          "when": .set(
            ["nested": [Date(timeIntervalSinceReferenceDate: seconds)] as [Any]] as [String: Any]),
          "other": .set("fine"),
        ])
      }
      #expect(error.kind == .invalidValue(key: "when"))
      #expect(
        error.reason
          == "it holds the date \(seconds) s from 2001-01-01T00:00:00Z, not a finite time, which "
          + "a reader refuses; nothing was written")
      #expect(try Data(contentsOf: url) == before)
      // The one-key write (`settings-editor write`) refuses it the same way.
      #expect(throws: PropertyListError.self) {
        try PropertyListFile(url: url).write([
          "when": .set(Date(timeIntervalSinceReferenceDate: seconds))
        ])
      }
      #expect(try Data(contentsOf: url) == before)
    }
  }

  /// A write made from no file never replaces a file that is there by its rename: one another
  /// program made meanwhile, or one a read took for absent (`open` failing with `ENOENT`, as
  /// the storage torture test injected: the suite then held only the key written, seed 4309).
  @Test func aWriteMadeFromNoFileNeverReplacesOneThatIsThereByThen() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("appearing.plist")
    var known: PropertyListSnapshot?
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(url: url).update(known: &known) { document in
        // Another program, which does not take the lock, writes the file after the read.
        try foundationWrite(["theirs": "kept"], to: url, format: .xml)
        document.values["ours"] = "new"
        return true
      }
    }
    #expect(error.kind == .unwritable)
    #expect(
      error.reason
        == "the file was absent when it was read and is there now; it was left as it is")
    #expect(try foundationRead(url) as NSDictionary == ["theirs": "kept"] as NSDictionary)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.filter { !$0.hasSuffix(".lock") } == ["appearing.plist"])
    // The next write reads the file, and keeps its value.
    try PropertyListFile(url: url).apply(["ours": .set("new")])
    #expect(
      try foundationRead(url) as NSDictionary == ["theirs": "kept", "ours": "new"] as NSDictionary)
  }

  @Test func aSuitesFlushDropsTheRefusedKeyAndWritesTheOthers() async throws {
    let folder = try TemporaryFolder()
    let (url, _) = try suite(.xml, in: folder)
    let defaults = PropertyListDefaults(fileURL: url)
    let log = DefaultsChangeLog()
    let observation = defaults.observe(log.handler)
    defer { observation.cancel() }
    defaults.set("a\u{1B}b", forKey: "small")
    defaults.set("fine", forKey: "other")
    let error = try #require(throws: PropertyListError.self) { try defaults.flush() }
    #expect(error.kind == .invalidValue(key: "small"))
    // The other key is written; the refused one is the value on disk again, and observers heard.
    #expect(try PythonPlistlib.strings(url) == ["small": "kept", "other": "fine"])
    #expect(defaults.string(forKey: "small") == "kept")
    #expect(log.changes(from: .otherProcess).flatMap(\.keys) == ["small"])
    // Nothing refused is left pending: the next flush succeeds.
    defaults.set("more", forKey: "third")
    try defaults.flush()
    #expect(defaults.lastError == nil)
    #expect(try PythonPlistlib.strings(url) == ["small": "kept", "other": "fine", "third": "more"])
  }

  @Test func aCarriageReturnInAnXMLSuiteReadsBackAsACarriageReturnInOtherReaders() async throws {
    let folder = try TemporaryFolder()
    let (url, _) = try suite(.xml, in: folder)
    let defaults = PropertyListDefaults(fileURL: url)
    // Spliced into the text (an existing file), then written whole (a new key with a return).
    defaults.set("one\r\ntwo\r", forKey: "lines")
    try defaults.flush()
    let other = PropertyListDefaults(fileURL: folder.file("new.plist"))
    other.set("three\rfour", forKey: "key\rwith return")
    try other.flush()
    #expect(try PythonPlistlib.strings(url) == ["small": "kept", "lines": "one\r\ntwo\r"])
    #expect(
      try PythonPlistlib.strings(folder.file("new.plist")) == ["key\rwith return": "three\rfour"])
    #expect(try foundationRead(url)["lines"] as? String == "one\r\ntwo\r")
    #expect(try PropertyListFile(url: url).read()?.values["lines"] as? String == "one\r\ntwo\r")
  }

  /// A carriage return another program wrote raw (CoreFoundation's writer does) reads back as a
  /// carriage return, as CoreFoundation and Foundation read it; python's `plistlib` (expat) alone
  /// turns it into a line feed (XML 1.0 §2.11), and would merge two keys Apple keeps apart.
  @Test func rawCarriageReturnsAnotherProgramWroteReadAsCarriageReturnsAsCoreFoundationReadsThem()
    throws
  {
    let folder = try TemporaryFolder()
    let url = folder.file("suite.plist")
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>\r
      <plist version="1.0">\r
      <dict>\r
      \t<key>lines</key>\r
      \t<string>one\r\ntwo\rthree</string>\r
      \t<key>key\rwith return</key>\r
      \t<string>kept&#13;as a reference</string>\r
      </dict>\r
      </plist>\r

      """
    try Data(text.utf8).write(to: url)
    let expected = ["lines": "one\r\ntwo\rthree", "key\rwith return": "kept\ras a reference"]
    let foundation = try foundationRead(url)
    #expect(foundation.count == 2)
    #expect(foundation["lines"] as? String == expected["lines"])
    #expect(foundation["key\rwith return"] as? String == expected["key\rwith return"])
    let read = try #require(try PropertyListFile(url: url).read()).values
    #expect(read.count == 2)
    #expect(read["lines"] as? String == expected["lines"])
    #expect(read["key\rwith return"] as? String == expected["key\rwith return"])
    #expect(
      try PythonPlistlib.strings(url) == [
        "lines": "one\ntwo\nthree", "key\nwith return": "kept\ras a reference",
      ])
  }

  @Test(arguments: formats)
  func aFailedAllocationRefusesTheWriteAndLeavesTheFileAsItWas(
    _ format: PropertyListSerialization.PropertyListFormat
  ) throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(format, in: folder)
    let file = PropertyListFile(url: url)
    // Every block of 1 MiB or more the write path asks for fails, as when memory runs out.
    let error = try SystemMemory.$refusedByteCount.withValue(1 << 20) {
      try #require(throws: PropertyListError.self) {
        try file.apply(["big": .set(String(repeating: "x", count: 2 << 20))])
      }
    }
    #expect(error.kind == .unwritable)
    #expect(error.reason.hasPrefix("out of memory for "), "\(error)")
    #expect(try Data(contentsOf: url) == before)
    // Memory back: the same write succeeds.
    _ = try file.apply(["big": .set("small enough")])
    #expect(try PythonPlistlib.strings(url) == ["small": "kept", "big": "small enough"])
  }
}
