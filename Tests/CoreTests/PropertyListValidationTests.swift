import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Property lists that crashed Foundation, expanded without bound or were misread (issue 12,
/// items 1–3): refused with a reason naming the file, wherever a property list is read.
@Suite struct PropertyListValidationTests {
  /// The 50-byte file of the issue: `{"k": set("k")}`.
  static let setFile = BinaryPropertyListBytes.dictionary(holding: [[0xC1, 0x01]])

  /// The reason `PropertyListFile.read()` gives for `data`, or nil when it reads.
  func refusal(of data: Data, in folder: TemporaryFolder, name: String = "bad.plist") throws
    -> String?
  {
    let url = folder.file(name)
    try data.write(to: url)
    do {
      _ = try PropertyListFile(url: url).read()
      return nil
    } catch let error as PropertyListError {
      #expect(error.kind == .malformed)
      #expect(error.file == url)
      #expect(try Data(contentsOf: url) == data, "the file is left as it was")
      return error.reason
    }
  }

  @Test func binarySetIsRefusedNamingTheFileAndTheObject() async throws {
    try await withTemporaryFolder { folder in
      #expect(Self.setFile.count == 50)
      let url = folder.file("set.plist")
      try Self.setFile.write(to: url)
      #expect(throws: PropertyListError.self) { try PropertyListFile(url: url).read() }
      do {
        _ = try PropertyListFile(url: url).read()
      } catch let error as PropertyListError {
        #expect(
          error.description
            == "\(url.path) is not a valid property list (binary property list: object 2 at byte 13 "
            + "is a set, which preferences cannot hold); it was left unchanged")
      }
    }
  }

  @Test func setInASuiteRefusesWritesAndKeepsTheFile() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("suite.plist")
      try Self.setFile.write(to: url)
      let defaults = PropertyListDefaults(fileURL: url)
      #expect(defaults.lastError?.kind == .malformed)
      #expect(defaults.object(forKey: "k") == nil)
      #expect(throws: PropertyListError.self) { try defaults.write("v", forKey: "other") }
      #expect(try Data(contentsOf: url) == Self.setFile)
    }
  }

  @Test func setAppearingInAWatchedSuiteIsReportedNotParsed() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("watched.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      defaults.set("before", forKey: "a")
      try defaults.flush()
      try Self.setFile.write(to: url, options: .atomic)
      let seen = await poll(within: .seconds(20)) { defaults.lastError?.kind == .malformed }
      #expect(seen, "the re-read after inotify reports the malformed file")
      #expect(defaults.string(forKey: "a") == "before", "the last good values stay")
    }
  }

  @Test func setInACloudContainerIsRefusedByLoad() async throws {
    try await withTemporaryFolder { folder in
      let backend = EmbeddedCloudBackend(root: folder.url, container: "c", account: "a")
      try FileManager.default.createDirectory(
        at: backend.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Self.setFile.write(to: backend.fileURL)
      #expect {
        try backend.load()
      } throws: { error in
        (error as? PropertyListError)?.reason.contains("is a set") == true
      }
    }
  }

  @Test func otherObjectsPreferencesCannotHoldAreRefused() async throws {
    try await withTemporaryFolder { folder in
      let cases: [([UInt8], String)] = [
        (
          [0x80, 0x05],
          "object 2 at byte 13 is a UID (a keyed-archiver reference), which preferences cannot hold"
        ),
        ([0xB1, 0x01], "object 2 at byte 13 is an ordered set, which preferences cannot hold"),
        ([0x00], "object 2 at byte 13 is null, which preferences cannot hold"),
        ([0x70], "object 2 at byte 13 has the unknown marker 0x70"),
        ([0xA1, 0x02], "object 2 contains itself"),
        ([0xA1, 0x09], "object 2 at byte 13 refers to object 9, beyond the 3 objects of the file"),
        ([0x5F, 0x10, 0xFF, 0x41], "object 2 at byte 13 is longer than the file"),
        ([0x55, 0x41], "object 2 at byte 13 runs past the end of the object area"),
        ([0x52, 0x41, 0xC1], "object 2 at byte 13 is an ASCII string holding the byte 0xC1"),
        ([0x61, 0xD8, 0x00], "object 2 at byte 13 is a UTF-16 string with an unpaired surrogate"),
        (
          [0x33] + BinaryPropertyListBytes.bigEndian(Double.nan.bitPattern, size: 8),
          "object 2 at byte 13 is a date that is not a finite time"
        ),
      ]
      for (object, reason) in cases {
        let refused = try refusal(
          of: BinaryPropertyListBytes.dictionary(holding: [object]), in: folder)
        #expect(refused == "binary property list: " + reason)
      }
      let numberKey = BinaryPropertyListBytes.file([[0xD1, 1, 2], [0x10, 0x01], [0x09]])
      let refused = try refusal(of: numberKey, in: folder)
      #expect(
        refused
          == "binary property list: object 0 at byte 8 is a dictionary whose key 0 is not a string")
    }
  }

  @Test func exponentialExpansionIsRefusedWithoutExpanding() async throws {
    try await withTemporaryFolder { folder in
      let small = BinaryPropertyListBytes.doublingChain(10)
      let values = try PropertyListFile(url: folder.file("x")).document(from: small).values
      #expect((values["k"] as? [Any])?.count == 2)
      for n in [20, 60] {
        let data = BinaryPropertyListBytes.doublingChain(n)
        #expect(data.count == 50 + 4 * n)
        let refused = try refusal(of: data, in: folder)
        #expect(
          refused
            == "binary property list: it expands to more than 1000000 values (objects referred to many times)"
        )
      }
    }
  }

  /// Issue 23: the limits scale with the file — a valid suite of 520,000 keys (1,040,000 values,
  /// beyond the fixed 1,000,000) opens in both formats, while an expansion stays refused.
  @Test func aValidSuiteBeyondAMillionValuesOpensInBothFormats() async throws {
    try await withTemporaryFolder { folder in
      let keys = 520_000
      var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>"
      xml.reserveCapacity(keys * 40)
      for index in 0..<keys { xml += "<key>k\(index)</key><integer>\(index)</integer>" }
      xml += "</dict></plist>"
      let file = PropertyListFile(url: folder.file("large"))
      #expect(try file.document(from: Data(xml.utf8)).values.count == keys)
      let values = Dictionary(uniqueKeysWithValues: (0..<keys).map { ("k\($0)", $0) })
      let binary = try PropertyListSerialization.data(
        fromPropertyList: values, format: .binary, options: 0)
      let read = try file.document(from: binary).values
      #expect(read.count == keys)
      #expect(read["k519999"] as? Int == 519_999)
      // 2⁴⁰ values from 210 bytes: far beyond 4 per object of the file.
      #expect(
        try refusal(of: BinaryPropertyListBytes.doublingChain(40), in: folder)
          == "binary property list: it expands to more than 1000000 values (objects referred to many times)"
      )
    }
  }

  @Test func deepNestingIsRefusedInEveryFormat() async throws {
    try await withTemporaryFolder { folder in
      let xml =
        "<plist><dict><key>k</key>" + String(repeating: "<array>", count: 600)
        + String(repeating: "</array>", count: 600) + "</dict></plist>"
      let refusedXML = try refusal(of: Data(xml.utf8), in: folder)
      #expect(
        refusedXML
          == "XML property list, line 1: arrays and dictionaries are nested deeper than 512 levels")
      let text = "{k = " + String(repeating: "(", count: 100_000) + "}"
      let refusedText = try refusal(of: Data(text.utf8), in: folder)
      #expect(
        refusedText
          == "text property list, line 1: arrays and dictionaries are nested deeper than 512 levels"
      )
    }
  }

  @Test func sixteenByteIntegersAreReadExactlyOrRefused() async throws {
    try await withTemporaryFolder { folder in
      let big =
        [0x14] + BinaryPropertyListBytes.bigEndian(1 << 63, size: 8)
        + BinaryPropertyListBytes.bigEndian(5, size: 8)
      let minusOne = [UInt8](repeating: 0xFF, count: 16)
      for bytes in [big, [0x14] + minusOne] {
        let refused = try refusal(
          of: BinaryPropertyListBytes.dictionary(holding: [bytes]), in: folder)
        #expect(
          refused
            == "binary property list: object 2 at byte 13 is a 16-byte integer outside "
            + "0…18446744073709551615, which Foundation would misread")
      }
      let largest = [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)
      let data = BinaryPropertyListBytes.dictionary(holding: [largest])
      let document = try PropertyListFile(url: folder.file("x")).document(from: data)
      #expect(document.values["k"] as? UInt64 == UInt64.max)
    }
  }

  /// An XML property list with `<key>k</key>` followed by `element`.
  func xml(_ element: String) -> Data {
    Data(
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict><key>k</key>\(element)</dict>\n</plist>\n"
        .utf8)
  }

  @Test func xmlScalarsFoundationWouldMisreadAreRefused() async throws {
    try await withTemporaryFolder { folder in
      let cases: [(String, String)] = [
        (
          "<date>9999999-99-99T99:99:99Z</date>",
          "<date> \"9999999-99-99T99:99:99Z\" is not a date (YYYY-MM-DDTHH:MM:SSZ)"
        ),
        (
          "<date>2023-02-29T00:00:00Z</date>",
          "<date> \"2023-02-29T00:00:00Z\" is not a date (YYYY-MM-DDTHH:MM:SSZ)"
        ),
        ("<data>!!!!@@@@====</data>", "<data> is not Base64"),
        ("<data>====</data>", "<data> is not Base64"),
        ("<data>AA=A</data>", "<data> is not Base64"),
        ("<data>AAE</data>", "<data> is not Base64"),
        ("<data>AA&#69;C</data>", "<data> is not Base64"),
        (
          "<integer>170141183460469231731687303715884105733</integer>",
          "<integer> 170141183460469231731687303715884105733 is outside -9223372036854775808…18446744073709551615"
        ),
        (
          "<integer>-9223372036854775809</integer>",
          "<integer> -9223372036854775809 is outside -9223372036854775808…18446744073709551615"
        ),
        ("<integer>12abc</integer>", "<integer> \"12abc\" is not an integer"),
        ("<real>1.2.3</real>", "<real> \"1.2.3\" is not a number"),
      ]
      for (element, reason) in cases {
        let refused = try refusal(of: xml(element), in: folder)
        #expect(refused == "XML property list, line 3: " + reason)
      }
      let exact: [(String, Any)] = [
        ("<date>2024-02-29T23:59:59Z</date>", Date(timeIntervalSinceReferenceDate: 730_943_999)),
        ("<data>\n  AAEC\n  /w==\n</data>", Data([0, 1, 2, 255])),
        ("<data></data>", Data()),
        ("<integer>18446744073709551615</integer>", UInt64.max),
        ("<integer>-9223372036854775808</integer>", Int.min),
        ("<real>1</real>", 1.0),
      ]
      for (element, value) in exact {
        let document = try PropertyListFile(url: folder.file("x")).document(from: xml(element))
        #expect(propertyListValuesEqual(document.values["k"], value), "\(element)")
      }
    }
  }

  /// A file another program rewrites in place with a shorter text: until it cuts the file, the
  /// old text's tail follows `</plist>`. Foundation's parser ignores it (and merges keys that
  /// differ only in Unicode normalization): refused, so readers and writers read it again.
  @Test func textAfterThePlistEndIsRefusedAndCommentsAreNot() async throws {
    try await withTemporaryFolder { folder in
      let old = xml("<string>a longer value</string>")
      let new = xml("<string>short</string>")
      let halfWritten = new + old[new.count...]
      #expect(
        try refusal(of: halfWritten, in: folder)
          == "XML property list, line 5: text follows </plist> (a file being written in place?)")
      #expect(try refusal(of: new + Data("garbage".utf8), in: folder) != nil)
      let allowed = new + Data("\n<!-- </plist> x -->\n<?done?>\n  \n".utf8)
      let document = try PropertyListFile(url: folder.file("x")).document(from: allowed)
      #expect(document.values["k"] as? String == "short")
    }
  }

  @Test func everyFixtureStillReads() async throws {
    let names = try FileManager.default.contentsOfDirectory(
      atPath: PropertyListFileTests.fixtures.path
    )
    .filter { $0.hasSuffix(".plist") }.sorted()
    #expect(names.count == 6)
    for name in names {
      let url = PropertyListFileTests.fixtures.appendingPathComponent(name)
      #expect(throws: Never.self, "\(name)") { try PropertyListFile(url: url).read() }
    }
  }
}
