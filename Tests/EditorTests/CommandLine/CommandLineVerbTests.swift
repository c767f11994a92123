import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// The verbs beyond `read`: typed `write`, `delete` on binary files, `domains`, `export`,
/// `import`, `watch` and `help`, run as the built program, with their exit statuses.
@Suite(.serialized) struct CommandLineVerbTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  private func suiteFile(_ suite: String) -> URL {
    editor.preferences.appendingPathComponent(suite + ".plist")
  }

  /// Copies a fixture into the preferences folder as `suite`, as a file copied from a Mac.
  private func installFixture(_ fixture: String, as suite: String) throws -> URL {
    let url = suiteFile(suite)
    try FileManager.default.copyItem(
      at: TestPreferences.fixtures.appendingPathComponent(fixture), to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    return url
  }

  private func document(_ url: URL) throws -> PropertyListDocument {
    try #require(try PropertyListFile(url: url).read())
  }

  /// The keys whose values differ between two dictionaries.
  private func differingKeys(_ lhs: [String: Any], _ rhs: [String: Any]) -> [String] {
    Set(lhs.keys).union(rhs.keys).filter { !propertyListValuesEqual(lhs[$0], rhs[$0]) }.sorted()
  }

  // MARK: write

  @Test func writeStoresEveryTypeLikeDefaults() throws {
    let suite = "verbs.write"
    let writes: [[String]] = [
      ["big", "-int", "18446744073709551615"], ["negative", "-integer", "-5"],
      ["ratio", "-real", "0.25"], ["flag", "-boolean", "no"],
      ["when", "-date", "2023-01-08T19:59:26Z"], ["bytes", "-data", "0a1b2c"],
      ["list", "-array", "a", "-int", "2", "-bool", "true"],
      ["map", "-dict", "name", "Bob", "age", "-int", "42"], ["dash", "-5"],
    ]
    for words in writes {
      let result = try editor.run(["write", suite] + words)
      #expect(result.status == 0, "\(words): \(result.error)")
    }
    let values = try document(suiteFile(suite)).values
    #expect(values["big"] as? UInt64 == UInt64.max)
    #expect(values["negative"] as? Int == -5)
    #expect(values["ratio"] as? Double == 0.25)
    #expect(values["flag"] as? Bool == false)
    #expect((values["when"] as? Date)?.timeIntervalSinceReferenceDate == 694_900_766)
    #expect(values["bytes"] as? Data == Data([0x0a, 0x1b, 0x2c]))
    #expect(propertyListValuesEqual(values["list"], ["a", 2, true] as [Any]))
    #expect(propertyListValuesEqual(values["map"], ["name": "Bob", "age": 42] as [String: Any]))
    #expect(values["dash"] as? String == "-5")
    #expect(try editor.run("read", suite, "when").output == "2023-01-08T19:59:26Z\n")
    #expect(try editor.run("read", suite, "big").output == "18446744073709551615\n")
  }

  @Test(arguments: [
    (["-int", "1.5"], "\"1.5\" is not an integer"), (["-float", "abc"], "\"abc\" is not a real"),
    (["-bool", "maybe"], "\"maybe\" is not a bool"), (["-date", "2023-13"], "is not a date"),
    (["-data", "xyz"], "\"xyz\" is not data (hexadecimal bytes"),
    (["-date", "2024-02-30T25:61:00Z"], "\"2024-02-30T25:61:00Z\" is not a date"),
    (["-date", "2023-02-29"], "\"2023-02-29\" is not a date"),
    (["-date", "2024-01-31 24:00:00 +0000"], "is not a date"),
    (["-array", "-int", "x"], "\"x\" is not an integer"),
  ])
  func writeRefusesInvalidValuesWith65(words: [String], message: String) throws {
    let result = try editor.run(["write", "verbs.invalid", "key"] + words)
    #expect(result.status == 65)
    #expect(result.error.contains(message), "\(result.error)")
    #expect(!FileManager.default.fileExists(atPath: suiteFile("verbs.invalid").path))
  }

  @Test(arguments: [
    ["write", "s", "k", "-dict", "a"], ["write", "s", "k", "-int"], ["write", "s", "k", "a", "b"],
    ["delete"], ["rename", "s", "a"], ["read-type", "s"], ["find"], ["read", "s", "--json"],
    ["domains", "extra"], ["export"], ["import", "s"], ["watch"],
    ["import", "a/b.plist", "x"], ["help", "nope"], ["export", "s", "--xml"],
  ])
  func usageErrorsExit64WithTheVerbsUsage(arguments: [String]) throws {
    let result = try editor.run(arguments)
    #expect(result.status == 64, "\(arguments)")
    let verb = arguments[0]
    #expect(result.error.contains("Usage: settings-editor \(verb)"), "\(result.error)")
    #expect(result.error.contains("Run settings-editor \(verb) --help for more."))
  }

  @Test func aBinarySuiteKeepsEveryDigitOfADateAndXMLKeepsSeconds() throws {
    _ = try installFixture("empty-dict-binary.plist", as: "verbs.dates")
    let text = "2023-01-08T19:59:26.426036Z"
    #expect(try editor.run("write", "verbs.dates", "when", "-date", text).status == 0)
    let date = try #require(try document(suiteFile("verbs.dates")).values["when"] as? Date)
    #expect(date.timeIntervalSinceReferenceDate == 694900766.426036)
    #expect(try editor.run("read", "verbs.dates", "when").output == text + "\n")
    let xml = try editor.run("export", "verbs.dates").output
    #expect(xml.contains("<date>2023-01-08T19:59:26Z</date>"))
  }

  @Test func writeAndDeleteOnABinarySuiteKeepItBinaryAndEveryOtherValue() throws {
    let url = try installFixture("global-preferences-binary.plist", as: "verbs.binary")
    let before = try document(url)
    #expect(
      try editor.run("write", "verbs.binary", "AppleLanguagesSchemaVersion", "-int", "3001").status
        == 0)
    #expect(try editor.run("delete", "verbs.binary", "ApplePressAndHoldEnabled").status == 0)
    let after = try document(url)
    #expect(after.format == .binary)
    #expect(try Data(contentsOf: url).prefix(8) == Data("bplist00".utf8))
    #expect(
      differingKeys(before.values.stringKeyed, after.values.stringKeyed) == [
        "AppleLanguagesSchemaVersion", "ApplePressAndHoldEnabled",
      ])
    #expect(after.values["AppleLanguagesSchemaVersion"] as? Int == 3001)
    #expect(after.values["ApplePressAndHoldEnabled"] == nil)
  }

  @Test func writeAndDeleteWorkOnAFileByPathAndKeepItsFormat() throws {
    let url = editor.preferences.appendingPathComponent("copies/rectangle.plist")
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: TestPreferences.fixtures.appendingPathComponent("rectangle-binary.plist"), to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    let before = try document(url)
    #expect(try editor.run("write", url.path, "lastVersion", "93").status == 0)
    #expect(try editor.run("delete", url.path, "hideMenubarIcon").status == 0)
    let missing = try editor.run("delete", url.path, "hideMenubarIcon")
    #expect(missing.status == 1)
    #expect(
      missing.error == "settings-editor: the key hideMenubarIcon does not exist in \(url.path)\n")
    let after = try document(url)
    #expect(after.format == .binary)
    #expect(
      differingKeys(before.values.stringKeyed, after.values.stringKeyed) == [
        "hideMenubarIcon", "lastVersion",
      ])
  }

  // MARK: read, domains

  @Test func notFoundExits1AndAMalformedFileExits65() throws {
    let missingFile = try editor.run("read", "/nonexistent/x.plist")
    #expect(missingFile.status == 1)
    #expect(missingFile.error == "settings-editor: no such file: /nonexistent/x.plist\n")
    try Data("garbage".utf8).write(to: suiteFile("verbs.garbage"))
    let malformed = try editor.run("read", "verbs.garbage")
    #expect(malformed.status == 65)
    #expect(malformed.error.contains("is not a valid property list"))
    #expect(try editor.run("write", "verbs.garbage", "k", "v").status == 65)
    #expect(try Data(contentsOf: suiteFile("verbs.garbage")) == Data("garbage".utf8))
  }

  @Test func domainsListsTheSuitesOnePerLine() throws {
    let empty = try editor.run("domains")
    #expect(empty.status == 0)
    #expect(empty.output == "")
    _ = try editor.run("write", "b.suite", "k", "v")
    _ = try editor.run("write", "a.suite", "k", "v")
    #expect(try editor.run("domains").output == "a.suite\nb.suite\n")
  }

  // MARK: export, import

  /// The dates with a fraction of a second in global-preferences-binary.plist.
  static let fractionalDateKeys = [
    "AKLastEmailListRequestDateKey", "NSLinguisticDataAssetsRequestTime",
  ]

  /// The file type bits of what is at `path` (`lstat`: a symbolic link is not followed).
  private func fileType(_ path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
  }

  /// `export` to a path writes a new file or replaces a regular file atomically; a symbolic
  /// link, a named pipe, a device node or a folder there is refused with a message and a
  /// non-zero exit, and left as it was (it was replaced by a regular file).
  @Test func exportToAPathRefusesWhatIsNotARegularFile() throws {
    _ = try installFixture("global-preferences-binary.plist", as: "verbs.exported")
    let count = try document(suiteFile("verbs.exported")).values.count
    let folder = try TemporaryFolder()
    let regular = folder.file("regular.plist")
    try Data("old".utf8).write(to: regular)
    let new = folder.file("new.plist")
    for path in [regular, new] {
      #expect(try editor.run("export", "verbs.exported", path.path).status == 0)
      #expect(try document(path).values.count == count)
      #expect(fileType(path.path) == S_IFREG)
    }
    let target = folder.file("target.txt")
    try Data("kept".utf8).write(to: target)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("link.plist").path, withDestinationPath: target.path)
    try FileManager.default.createDirectory(
      at: folder.file("folder.plist"), withIntermediateDirectories: false)
    #expect(try ChildProcess.runCommand("mkfifo", [folder.file("fifo.plist").path]).status == 0)
    var cases: [(name: String, type: mode_t, what: String)] = [
      ("link.plist", S_IFLNK, "a symbolic link"), ("folder.plist", S_IFDIR, "a folder"),
      ("fifo.plist", S_IFIFO, "a named pipe"),
    ]
    // Only root may make a device node (CI runs as root): a copy of /dev/null.
    if getuid() == 0 {
      let device = folder.file("device.plist").path
      #expect(try ChildProcess.runCommand("mknod", [device, "c", "1", "3"]).status == 0)
      cases.append(("device.plist", S_IFCHR, "a character device"))
    }
    for (name, type, what) in cases {
      let path = folder.file(name).path
      let result = try editor.run("export", "verbs.exported", path)
      #expect(result.status == 1, "\(name)")
      #expect(
        result.error
          == "settings-editor: \(path) could not be written (it is \(what), not a regular file; "
          + "it was left as it was)\n")
      #expect(fileType(path) == type, "\(name)")
    }
    #expect(try String(contentsOf: target, encoding: .utf8) == "kept")
    // No temporary file is left behind.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        == (["new.plist", "regular.plist", "target.txt"] + cases.map(\.name)).sorted())
  }

  @Test func exportWritesXMLOrJSONToStandardOutputOrAFile() throws {
    _ = try installFixture("global-preferences-binary.plist", as: "verbs.export")
    let values = try document(suiteFile("verbs.export")).values.stringKeyed
    let xml = try editor.run("export", "verbs.export")
    #expect(xml.status == 0)
    #expect(xml.output.hasPrefix("<?xml"))
    let parsed = try #require(
      try PropertyListSerialization.propertyList(from: Data(xml.output.utf8), format: nil)
        as? [String: Any])
    #expect(differingKeys(parsed, values) == Self.fractionalDateKeys, "XML dates keep seconds")
    for key in Self.fractionalDateKeys {
      let exported = try #require(parsed[key] as? Date)
      let stored = try #require(values[key] as? Date)
      #expect(
        exported.timeIntervalSinceReferenceDate
          == stored.timeIntervalSinceReferenceDate.rounded(.down))
    }

    let output = editor.preferences.appendingPathComponent("out.plist")
    #expect(try editor.run("export", "verbs.export", output.path).status == 0)
    #expect(
      differingKeys(try document(output).values.stringKeyed, values) == Self.fractionalDateKeys)

    let json = try editor.run("export", "verbs.export", "--json", "-")
    #expect(json.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    #expect(
      object["AKLastEmailListRequestDateKey"] as? [String: String]
        == ["$date": "2023-01-08T19:59:26.426036Z"])
    #expect(object["KB_SingleQuoteOption"] as? String == "‘abc’")
    #expect((object["AppleLanguages"] as? [Any])?.first as? String == "en-GB")

    let fixture = TestPreferences.fixtures.appendingPathComponent("rectangle-binary.plist").path
    #expect(try editor.run("export", fixture, "--json").output.contains("\"lastVersion\" : \"92\""))
    #expect(try editor.run("export", "verbs.nothing").status == 1)
  }

  @Test func importReplacesASuiteFromAFileStandardInputOrJSON() throws {
    _ = try editor.run("write", "verbs.import", "stale", "x")
    let fixture = TestPreferences.fixtures.appendingPathComponent("iterm2-xml.plist")
    #expect(try editor.run("import", "verbs.import", fixture.path).status == 0)
    let imported = try document(suiteFile("verbs.import")).values.stringKeyed
    #expect(differingKeys(imported, try document(fixture).values.stringKeyed).isEmpty)

    let json = Data(#"{"name": "Bob", "age": 42, "ratio": 0.5, "on": true, "list": [1, "a"]}"#.utf8)
    let fromStdin = try editor.run(["import", "verbs.import", "-", "--json"], input: json)
    #expect(fromStdin.status == 0, "\(fromStdin.error)")
    let values = try document(suiteFile("verbs.import")).values.stringKeyed
    #expect(values.keys.sorted() == ["age", "list", "name", "on", "ratio"])
    #expect(values["age"] as? Int == 42)
    #expect(values["ratio"] as? Double == 0.5)
    #expect(values["on"] as? Bool == true)
  }

  /// `import` writes only the values that differ: the other entries of an XML suite keep their
  /// text byte for byte (an entity, a one-line array, `<string/>`), as after a `write`.
  @Test func importKeepsTheTextOfTheValuesItDoesNotChange() throws {
    let url = suiteFile("verbs.keep")
    let kept =
      "\t<key>arr</key><array><real>1.50</real></array>\n\t<key>e</key>\n\t<string/>\n"
      + "\t<key>zeta</key>\n\t<string>&#65;&#x42; &quot;q&apos;</string>\n"
    let text =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n" + kept
      + "\t<key>n</key>\n\t<integer>4</integer>\n</dict>\n</plist>\n"
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    let exported = try editor.run("export", "verbs.keep")
    #expect(exported.status == 0)
    let changed = exported.output.replacingOccurrences(
      of: "<integer>4</integer>", with: "<integer>9</integer>")
    let imported = try editor.run(["import", "verbs.keep", "-"], input: Data(changed.utf8))
    #expect(imported.status == 0, "\(imported.error)")
    #expect(
      String(decoding: try Data(contentsOf: url), as: UTF8.self)
        == text.replacingOccurrences(of: "<integer>4</integer>", with: "<integer>9</integer>"))
  }

  /// Bug 10: `export --json` then `import --json` turned dates and data into strings.
  @Test func jsonExportAndImportKeepDatesAndData() throws {
    #expect(
      try editor.run("write", "verbs.json", "when", "-date", "2023-01-08T19:59:26Z")
        .status == 0)
    #expect(try editor.run("write", "verbs.json", "bytes", "-data", "deadbeef").status == 0)
    #expect(
      try editor.run("write", "verbs.json", "list", "-array", "-date", "2026-01-01T00:00:00Z")
        .status == 0)
    let json = try editor.run("export", "verbs.json", "--json")
    #expect(
      json.output == """
        {
          "bytes" : {
            "$data" : "3q2+7w=="
          },
          "list" : [
            {
              "$date" : "2026-01-01T00:00:00Z"
            }
          ],
          "when" : {
            "$date" : "2023-01-08T19:59:26Z"
          }
        }

        """)
    let imported = try editor.run(
      ["import", "verbs.json2", "-", "--json"], input: Data(json.output.utf8))
    #expect(imported.status == 0, "\(imported.error)")
    #expect(try editor.run("export", "verbs.json2", "--json").output == json.output)
    let values = try document(suiteFile("verbs.json2")).values
    #expect(values["bytes"] as? Data == Data([0xde, 0xad, 0xbe, 0xef]))
    #expect((values["when"] as? Date)?.timeIntervalSinceReferenceDate.rounded(.down) == 694_900_766)
  }

  @Test func importOfAMissingFileExits1AndNamesIt() throws {
    let result = try editor.run("import", "verbs.nofile", "/nonexistent/in.plist")
    #expect(result.status == 1)
    #expect(result.error == "settings-editor: cannot read /nonexistent/in.plist\n")
  }

  @Test func importKeepsABinarySuiteBinary() throws {
    let url = try installFixture("rectangle-binary.plist", as: "verbs.importbinary")
    let xml = try PropertyListSerialization.data(
      fromPropertyList: ["lastVersion": "94"], format: .xml, options: 0)
    #expect(try editor.run(["import", "verbs.importbinary", "-"], input: xml).status == 0)
    let after = try document(url)
    #expect(after.format == .binary)
    #expect(after.values.count == 1)
    #expect(after.values["lastVersion"] as? String == "94")
  }

  @Test(arguments: [
    (
      "<?xml version=\"1.0\"?><plist><dict><key>a</key>", false,
      "-: not a property list with a dictionary at the top"
    ),
    ("garbage", false, "-: not a property list with a dictionary at the top (the root is a String"),
    ("", false, "-: the input is empty"),
    ("[1, 2]", true, "-: the top level is not a JSON object"),
    ("1", true, "-: the top level is not a JSON object"),
    // A place only where the parser names one (it said "at the end" for both).
    (
      #"{"a": 1e400}"#, true,
      "-: line 1, column 7: the real 1e400 is beyond what a property list holds "
        + "(±1.7976931348623157e+308); write it as a string\n"
    ),
    // A number where a key must be, or not by JSON's grammar, is the parser's to refuse (a
    // number read apart from the parser had let both through, the first losing its member).
    (#"{"a":{"x":1,-9223372036854775808: 2}}"#, true, "-: line 1, column 13: not valid JSON"),
    (#"{"a": -09223372036854775808}"#, true, "number with leading zero"),
    (
      "{\"a\": " + String(repeating: "9", count: 500) + "}", true,
      "-: line 1, column 7: the integer 99999999999999999999…9999999999 (500 characters) is"
    ),
    (#"{"a": "\u00"}"#, true, "-: line 1, column 10: not valid JSON (invalid hex encoded"),
    // A key that is not a valid string: where the text fails, as for any other string.
    (#"{"a\q": 1}"#, true, "-: line 1, column 4: not valid JSON (invalid escape sequence)"),
    ("{\"a\u{1}\": 1}", true, "-: line 1, column 4: not valid JSON (unescaped control character)"),
    // Bug 9: the file, line and column, and what was expected, not an NSError dump.
    ("{\n  \"a\": 1,\n  \"b\": }", true, "-: line 3, column 8: not valid JSON (invalid value)"),
    ("{\"z\": null}", true, "-: z is null, which a property list cannot hold; leave the key out"),
    (
      #"{"d": {"$date": "yesterday"}}"#, true,
      "-: d: $date must be an ISO 8601 date like 2026-01-31T09:30:00Z, or seconds from 2001 "
        + "like -1e13 s from 2001-01-01T00:00:00Z\n"
    ),
    (#"{"d": {"$date": "nan s from 2001-01-01T00:00:00Z"}}"#, true, "-: d: $date must be an ISO"),
    // What the XML suite cannot hold refuses the whole import: no other key is written or
    // removed (the suite lost `keep` and gained `n` before).
    (
      #"{"k": {"$date": "-1e13 s from 2001-01-01T00:00:00Z"}, "n": 1}"#, true,
      "it holds the date -10000000000000.0 s from 2001-01-01T00:00:00Z, outside the years "
        + "0–999999 an XML property list's date holds"
    ),
    (#"{"c": "a\u0001b", "n": 1}"#, true, "it holds U+0001, a character an XML property list"),
    // An integer a property list cannot hold is refused where it is, not rounded to a real.
    (
      "{\"n\": 1,\n \"a\": [2, 123456789012345678901234567890]}", true,
      "-: line 2, column 11: the integer 123456789012345678901234567890 is beyond what a "
        + "property list holds (-9223372036854775808 to 18446744073709551615); write it as a "
        + "real (with a fraction or an exponent) or as a string\n"
    ),
    (#"{"u": 18446744073709551616}"#, true, "line 1, column 7: the integer 18446744073709551616"),
    (#"{"i": -9223372036854775809}"#, true, "line 1, column 7: the integer -9223372036854775809"),
  ])
  func importRefusesInvalidInputWith65(input: String, json: Bool, message: String) throws {
    _ = try editor.run("write", "verbs.badimport", "keep", "me")
    let result = try editor.run(
      ["import", "verbs.badimport", "-"] + (json ? ["--json"] : []), input: Data(input.utf8))
    #expect(result.status == 65)
    #expect(result.error.contains(message), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    #expect(try editor.run("read", "verbs.badimport").output == "{\n    keep = me;\n}\n")
  }

  /// `write` exits as `import` does for a value the suite cannot hold: 65, one line, nothing
  /// written (it exited 1, as for a file that cannot be written).
  @Test func writeRefusesAValueTheSuiteCannotHoldWith65() throws {
    _ = try editor.run("write", "verbs.badwrite", "keep", "me")
    let result = try editor.run("write", "verbs.badwrite", "c", "a\u{1}b")
    #expect(result.status == 65)
    #expect(
      result.error.hasPrefix("settings-editor: cannot store \"c\" in ")
        && result.error.hasSuffix(
          ": it holds U+0001, a character an XML property list cannot hold (XML 1.0); a binary "
            + "property list can hold it (plutil -convert binary1 converts the file)\n"),
      "\(result.error)")
    #expect(try editor.run("read", "verbs.badwrite").output == "{\n    keep = me;\n}\n")
    // A suite not made yet: no file to convert, so the hint says how to make a binary one.
    let new = try editor.run("write", "verbs.badwrite.new", "c", "a\u{1}b")
    #expect(new.status == 65)
    #expect(
      new.error.hasSuffix(
        "; a binary property list can hold it (plutil -create binary1 makes the file an empty "
          + "binary one)\n"),
      "\(new.error)")
    #expect(try editor.run("read", "verbs.badwrite.new").status == 1)
    // An empty file (an empty suite): `plutil -convert` fails on it, `-create` makes it.
    let empty = editor.preferences.appendingPathComponent("verbs.badwrite.empty.plist")
    #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
    let onEmpty = try editor.run("write", "verbs.badwrite.empty", "c", "a\u{1}b")
    #expect(onEmpty.status == 65)
    #expect(
      onEmpty.error.hasSuffix("(plutil -create binary1 makes the file an empty binary one)\n"))
  }

  // MARK: watch

  @Test func watchPrintsEachChangeUntilInterrupted() throws {
    _ = try editor.run("write", "verbs.watch", "age", "-int", "20")
    let watcher = try Watcher(editor, ["verbs.watch"])
    #expect(watcher.wait(onError: true) { $0.contains("watching verbs.watch") } != "")
    _ = try editor.run("write", "verbs.watch", "age", "-int", "21")
    _ = try editor.run("write", "verbs.watch", "name", "Bob Smith")
    _ = try editor.run("delete", "verbs.watch", "age")
    let expected = """
      TIME  verbs.watch  age: 20 → 21  (settings-editor (pid N))
      TIME  verbs.watch  name: (none) → "Bob Smith"  (settings-editor (pid N))
      TIME  verbs.watch  age: 21 → (none)  (settings-editor (pid N))

      """
    #expect(
      normalizedChangeLines(watcher.wait { normalizedChangeLines($0) == expected }) == expected)
    #expect(watcher.stop(with: SIGINT) == 0)
    #expect(watcher.child.process.terminationReason == .exit)
  }

  @Test func watchFollowsOneKeyAndStopsOnSIGTERM() throws {
    _ = try editor.run("write", "verbs.watchkey", "a", "1")
    let watcher = try Watcher(editor, ["verbs.watchkey", "b"])
    watcher.wait(onError: true) { $0.contains("watching") }
    _ = try editor.run("write", "verbs.watchkey", "a", "2")
    _ = try editor.run("write", "verbs.watchkey", "b", "-array", "x", "y")
    let expected = "TIME  verbs.watchkey  b: (none) → ( x, y )  (settings-editor (pid N))\n"
    #expect(
      normalizedChangeLines(watcher.wait { normalizedChangeLines($0) == expected }) == expected)
    #expect(watcher.stop(with: SIGTERM) == 0)
  }

  @Test func watchSaysWhoMadeEachChange() throws {
    _ = try editor.run("write", "verbs.origins", "a", "1")
    let watcher = try Watcher(editor, ["verbs.origins"])
    watcher.wait(onError: true) { $0.contains("watching") }
    let writer = try editor.start(["write", "verbs.origins", "a", "2"])
    #expect(writer.finish().status == 0)
    let program = "verbs.origins  a: 1 → 2  (settings-editor (pid \(writer.processIdentifier)))\n"
    watcher.wait { $0.hasSuffix(program) }
    // A hand edit: a new file without the writer's mark.
    try PropertyListSerialization.data(
      fromPropertyList: ["a": "\u{1b}[31m"], format: .xml, options: 0
    )
    .write(to: suiteFile("verbs.origins"), options: .atomic)
    let expected = """
      TIME  verbs.origins  a: 1 → 2  (settings-editor (pid N))
      TIME  verbs.origins  a: 2 → "\\u{1b}[31m"  (hand edit or other program)

      """
    #expect(
      normalizedChangeLines(watcher.wait { normalizedChangeLines($0) == expected }) == expected)
    #expect(watcher.stop(with: SIGINT) == 0)
  }

  @Test func watchTellsAMigration() throws {
    _ = try editor.run("write", "com.example.account", "user_name", "Ann")
    let watcher = try Watcher(editor, ["com.example.account"])
    watcher.wait(onError: true) { $0.contains("watching") }
    #expect(try editor.run("migrate", "com.example.account").status == 0)
    let expected = """
      TIME  com.example.account  ObservableDefaults.schemaVersion: (none) → 2  (migration)
      TIME  com.example.account  displayName: (none) → Ann  (migration)
      TIME  com.example.account  user_name: Ann → (none)  (migration)

      """
    #expect(
      normalizedChangeLines(watcher.wait { normalizedChangeLines($0) == expected }) == expected)
    #expect(watcher.stop(with: SIGINT) == 0)
  }

  // MARK: help

  @Test func everyVerbHasHelpBothWays() throws {
    for verb in ["read", "write", "delete", "domains", "export", "import", "watch", "help"] {
      let viaHelp = try editor.run("help", verb)
      #expect(viaHelp.status == 0, "\(verb)")
      #expect(viaHelp.output.hasPrefix("Usage: settings-editor \(verb)"), "\(verb)")
      #expect(viaHelp.output.contains("Exit status: 0 success; 1 "), "\(verb)")
      #expect(try editor.run(verb, "--help").output == viaHelp.output, "\(verb)")
    }
    #expect(
      try editor.run("write", "s", "k", "--help").output.hasPrefix("Usage: settings-editor write"))
    let dashWord = try editor.run("write", "s", "k", "-x")
    #expect(dashWord.status == 64)
    #expect(dashWord.error.hasPrefix("settings-editor: unknown type -x (use -string for text"))
    #expect(try editor.run("help").output == (try editor.run("--help")).output)
  }
}

/// A mistyped verb gets the verb it most likely meant, as git and gsettings users expect.
@Suite struct MistypedVerbTests {
  let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test(arguments: [
    ("raed", "read"), ("wirte", "write"), ("domain", "domains"), ("hlep", "help"),
    ("migrat", "migrate"), ("Delete", "delete"),
  ])
  func aMistypedVerbGetsTheNearestOne(typed: String, meant: String) throws {
    let result = try editor.run(typed, "com.example.demo")
    #expect(result.status == 64)
    #expect(
      result.error
        == "settings-editor: unknown command \(typed); did you mean \(meant)?\n"
        + "Run settings-editor --help for usage.\n")
  }

  @Test func aWordNearNoVerbGetsNoGuess() throws {
    let result = try editor.run("xyzzy")
    #expect(result.status == 64)
    #expect(!result.error.contains("did you mean"), "\(result.error)")
    let help = try editor.run("help", "wach")
    #expect(help.error.contains("unknown verb wach; did you mean watch?"), "\(help.error)")
  }
}

/// `help <verb>` is plain text for a terminal: no Markdown.
@Suite struct VerbHelpTests {
  @Test(arguments: [
    "read", "read-type", "write", "rename", "delete", "domains", "find", "export", "import",
    "watch", "migrate", "cloud", "help",
  ])
  func theHelpOfAVerbHasNoMarkdown(verb: String) throws {
    let result = try EditorProcess().run("help", verb)
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("Usage: settings-editor \(verb)"), "\(result.output)")
    #expect(!result.output.contains("`"), "\(result.output)")
  }
}
