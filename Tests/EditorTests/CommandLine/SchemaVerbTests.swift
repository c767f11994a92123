import Foundation
import TestSupport
import Testing

/// The gsettings-style verbs on the schemas a separate program (`schema-probe`) published and
/// exited: their outputs exactly, `write` checked against the schema, resets the program sees.
@Suite struct SchemaVerbTests {
  let editor: EditorProcess
  let suite = "com.example.schema-probe"

  init() throws {
    editor = try EditorProcess()
    let probe = try editor.runSchemaProbe("print")
    #expect(probe.status == 0, "\(probe.error)")
  }

  /// The probe's settings as it reads them when started again.
  private func probeValues() throws -> [String] {
    try editor.runSchemaProbe("print").output.split(separator: "\n").map(String.init)
  }

  @Test func listSchemasNamesEachStoreClassAndProgram() throws {
    let result = try editor.run("list-schemas")
    #expect(result.status == 0)
    #expect(
      result.output == """
        com.example.schema-probe\tschema_probe.ProbeAppSettings\tschema-probe
        cloud:schema-probe\tschema_probe.ProbeCloudPreferences\tschema-probe

        """)
    #expect(result.error == "")
  }

  @Test func listKeysInDeclarationOrder() throws {
    #expect(
      try editor.run("list-keys", suite).output
        == "displayName\ntheme\nscrollback\nfontSize\nshowsToolbar\norigin\nlastFolder\nhomePage\n"
        + "recentFiles\ndensity\ntabWidth\n")
    #expect(try editor.run("list-keys", "cloud:schema-probe").output == "theme\n")
    let unknown = try editor.run("list-keys", "com.example.none")
    #expect(unknown.status == 1)
    #expect(
      unknown.error == "settings-editor: no published schema describes com.example.none\n")
  }

  @Test func describeTellsTypeDefaultDocumentationAndValue() throws {
    #expect(
      try editor.run("describe", suite, "displayName").output == """
        key: displayName
        schema: schema_probe.ProbeAppSettings of schema-probe
        type: String
        stored as: string
        default: Probe
        previous keys: name
        summary: The name shown in the title bar.
        discussion: Shown after the document's name, as `Document — Name`.
        value: not set (the default applies)
        source: default

        """)
    #expect(try editor.run("write", suite, "scrollback", "-int", "500").status == 0)
    #expect(
      try editor.run("describe", suite, "scrollback").output == """
        key: scrollback
        schema: schema_probe.ProbeAppSettings of schema-probe
        type: Int16
        stored as: integer
        default: 1000
        range: -32768 … 32767
        summary: Lines kept in the scroll-back buffer.
        value: 500
        source: user: \(editor.preferences.path)/\(suite).plist

        """)
    #expect(
      try editor.run("describe", "cloud:schema-probe", "theme").output == """
        key: theme
        schema: schema_probe.ProbeCloudPreferences of schema-probe
        type: Theme
        stored as: rawString
        default: dark
        choices: light, dark, sepia
        summary: The theme every device of the user shares.

        """)
  }

  @Test func describeMarksAStoredValueThatDoesNotFit() throws {
    // Written by path: only a suite's writes are checked, so this one gets past the schema.
    let file = editor.preferences.appendingPathComponent("\(suite).plist").path
    #expect(try editor.run("write", file, "scrollback", "loud").status == 0)
    #expect(
      try editor.run("describe", suite, "scrollback").output.split(separator: "\n").dropLast().last
        == #"value: loud (does not fit: it is a string ("loud"))"#)
  }

  @Test func listKeysAndDescribeSayWhereAValueComesFrom() throws {
    let lock = try editor.system.write(["theme": "sepia"], suite: suite, mandatory: true)
    let shipped = try editor.system.write(["fontSize": 15.5], suite: suite)
    #expect(try editor.run("write", suite, "scrollback", "-int", "500").status == 0)
    #expect(
      try editor.run("list-keys", suite, "--source").output == """
        displayName	default
        theme	mandatory: \(lock.path)
        scrollback	user: \(editor.preferences.path)/\(suite).plist
        fontSize	system: \(shipped.path)
        showsToolbar	default
        origin	default
        lastFolder	default
        homePage	default
        recentFiles	default
        density	default
        tabWidth	default

        """)
    // The user's own value under the lock (written by path: a file has no lock) stays.
    let file = editor.preferences.appendingPathComponent("\(suite).plist").path
    #expect(try editor.run("write", file, "theme", "light").status == 0)
    #expect(try editor.run("reset", suite, "theme").status == 77)
    #expect(try editor.run("read", file, "theme").output == "light\n")
    let describe = try editor.run("describe", suite, "theme").output.split(separator: "\n")
    #expect(describe.suffix(2) == ["value: sepia", "source: mandatory: \(lock.path)"])
    let cloud = try editor.run("list-keys", "cloud:schema-probe", "--source")
    #expect(cloud.status == 64)
    #expect(
      cloud.error.hasPrefix(
        "settings-editor: --source is for suites: a cloud container has no system-wide or "
          + "mandatory values\n"))
  }

  @Test func rangeInTheFormOfGsettings() throws {
    #expect(try editor.run("range", suite, "theme").output == "enum\nlight\ndark\nsepia\n")
    #expect(try editor.run("range", suite, "scrollback").output == "range Int16 -32768 32767\n")
    #expect(try editor.run("range", suite, "fontSize").output == "type Double\n")
    let unknown = try editor.run("range", suite, "colour")
    #expect(unknown.status == 1)
    #expect(
      unknown.error == "settings-editor: no schema of \(suite) lists the key colour\n")
  }

  @Test func aWriteThatDoesNotFitTheSchemaIsRefusedWith65() throws {
    let range = try editor.run("write", suite, "scrollback", "-int", "40000")
    #expect(range.status == 65)
    #expect(
      range.error == """
        settings-editor: \(suite): 'scrollback' holds Int16 (an integer from -32768 to 32767) \
        values; the value is an integer (40000) (schema schema_probe.ProbeAppSettings of \
        schema-probe)

        """)
    let choice = try editor.run("write", suite, "theme", "blue")
    #expect(choice.status == 65)
    #expect(
      choice.error == """
        settings-editor: \(suite): 'theme' holds Theme (one of "light", "dark", "sepia") values; \
        the value is a string ("blue") (schema schema_probe.ProbeAppSettings of schema-probe)

        """)
    let type = try editor.run("write", suite, "showsToolbar", "-int", "1")
    #expect(type.status == 65)
    #expect(
      type.error.contains(
        "'showsToolbar' holds Bool (a Boolean) values; the value is an integer (1)"))
    #expect(try editor.run("read", suite).status == 1)  // nothing was written
    // A previous key is checked as its key; a key no schema lists is free.
    #expect(try editor.run("write", suite, "name", "-int", "3").status == 65)
    #expect(try editor.run("write", suite, "other", "-int", "3").status == 0)
  }

  /// Issue 22: a key no schema of the suite lists is still written (a suite is also a raw
  /// domain), with a warning naming the key and the schema; a suite without schemas, or a
  /// file named by path, writes without one.
  @Test func aKeyNoSchemaListsIsWrittenWithAWarning() throws {
    let result = try editor.run("write", suite, "other", "-int", "3")
    #expect(result.status == 0)
    #expect(result.output == "")
    #expect(
      result.error == """
        settings-editor: warning: no schema of \(suite) lists the key other (schema \
        schema_probe.ProbeAppSettings of schema-probe); it is written unchecked

        """)
    #expect(try editor.run("read", suite, "other").output == "3\n")
    let file = editor.preferences.appendingPathComponent("\(suite).plist").path
    for domain in ["com.example.unlisted", file] {
      let quiet = try editor.run("write", domain, "other", "-int", "4")
      #expect(quiet.status == 0, "\(domain)")
      #expect(quiet.error == "", "\(domain)")
    }
  }

  @Test func theProgramStartedAgainSeesEachEditAndEachReset() throws {
    #expect(try editor.run("write", suite, "theme", "sepia").status == 0)
    #expect(try editor.run("write", suite, "scrollback", "-int", "-5").status == 0)
    #expect(try editor.run("write", suite, "other", "kept").status == 0)
    #expect(try probeValues().contains("theme=sepia"))
    #expect(try probeValues().contains("scrollback=-5"))

    #expect(try editor.run("reset", suite, "theme").status == 0)
    #expect(try probeValues().contains("theme=light"))
    #expect(try probeValues().contains("scrollback=-5"))

    #expect(try editor.run("reset-recursively", suite).status == 0)
    #expect(try probeValues().contains("scrollback=1000"))
    #expect(try editor.run("read", suite).output == "{\n    other = kept;\n}\n")
    // Resetting what is not stored changes nothing and succeeds.
    #expect(try editor.run("reset", suite, "theme").status == 0)
  }

  /// `import` checks every value against the schema before it writes any (it stored `hello` as
  /// the Int16 `scrollback` before).
  @Test(arguments: [true, false])
  func anImportThatDoesNotFitTheSchemaWritesNothing(json: Bool) throws {
    let input =
      json
      ? Data(#"{"displayName": "Imported", "scrollback": "hello"}"#.utf8)
      : try PropertyListSerialization.data(
        fromPropertyList: ["displayName": "Imported", "scrollback": "hello"], format: .xml,
        options: 0)
    let result = try editor.run(["import", suite, "-"] + (json ? ["--json"] : []), input: input)
    #expect(result.status == 65)
    #expect(
      result.error.hasPrefix(
        "settings-editor: \(suite): 'scrollback' holds Int16 (an integer from -32768 to 32767) values"
      ))
    #expect(try editor.run("read", suite).status == 1)  // nothing was written
  }

  /// A suite file that does not parse is not reset (it is left byte for byte) and says so with
  /// 65; `describe` says the value is unknown instead of "not set".
  @Test func aSuiteThatDoesNotParseIsNotResetAndSaysSo() throws {
    let file = editor.preferences.appendingPathComponent(suite + ".plist")
    let bytes = Data("<plist><dict><key>theme</key><string>sepia</dict>".utf8)
    try bytes.write(to: file)
    for arguments in [["reset", suite, "theme"], ["reset-recursively", suite]] {
      let result = try editor.run(arguments)
      #expect(result.status == 65, "\(arguments)")
      #expect(
        result.error.hasPrefix("settings-editor: \(file.path) is not a valid property list ("))
    }
    #expect(try Data(contentsOf: file) == bytes)
    let describe = try editor.run("describe", suite, "theme")
    #expect(describe.status == 0)
    #expect(describe.output.contains("value: unknown: \(file.path) is not a valid property list ("))
  }

  @Test func schemaRemoveDeletesAProgramsFiles() throws {
    let folder = editor.publishedSchemas.appendingPathComponent("schema-probe")
    let removed = try editor.run("schema", "remove", "schema-probe")
    #expect(removed.status == 0)
    #expect(
      removed.output == """
        \(folder.path)/schema_probe.ProbeAppSettings@com.example.schema-probe.plist
        \(folder.path)/schema_probe.ProbeCloudPreferences@cloud-schema-probe.plist

        """)
    #expect(!FileManager.default.fileExists(atPath: folder.path))
    #expect(try editor.run("list-schemas").output == "")
    let again = try editor.run("schema", "remove", "schema-probe")
    #expect(again.status == 1)
    #expect(
      again.error
        == "settings-editor: no schema of schema-probe in \(editor.publishedSchemas.path)\n")
  }

  @Test func schemaRemoveGoneKeepsTheSchemasOfProgramsThatExist() throws {
    let gone = editor.publishedSchemas.appendingPathComponent("old-app/Old.Settings@old.plist")
    try FileManager.default.createDirectory(
      at: gone.deletingLastPathComponent(), withIntermediateDirectories: true)
    let root: [String: Any] = [
      "format": 1, "program": ["name": "old-app", "executable": "/nonexistent/old-app"],
      "module": "Old", "class": "Settings", "store": ["suite": "old"], "prefix": "", "keys": [],
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: gone)
    #expect(
      try editor.run("list-schemas").output.split(separator: "\n").first
        == "old\tOld.Settings\told-app\t(program gone)")
    let removed = try editor.run("schema", "remove", "--gone")
    #expect(removed.output == gone.path + "\n")
    #expect(try editor.run("list-schemas").output.split(separator: "\n").count == 2)
  }

  /// Issue 22: a program folder and a file whose names are not UTF-8 are listed (they were
  /// skipped, or reported as gone), named with their bytes as `\xHH`, and removed by name.
  @Test func namesThatAreNotUTF8AreListedEscapedAndRemoved() throws {
    let folder = RawPath(editor.publishedSchemas, Array("old".utf8) + [0xFF])
    let gone = folder.appending(Array("Old.Settings@old.plist".utf8))
    let bad = folder.appending(Array("Bad".utf8) + [0xFE] + Array(".plist".utf8))
    defer { for path in [gone, bad, folder] { path.remove() } }
    try folder.makeFolder()
    let root: [String: Any] = [
      "format": 1, "program": ["name": "old-app", "executable": "/nonexistent/old-app"],
      "module": "Old", "class": "Settings", "store": ["suite": "old"], "prefix": "", "keys": [],
    ]
    try gone.write(PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0))
    try bad.write(Data("<plist><dict><key>format".utf8))
    let shown = editor.publishedSchemas.path + "/old\\xFF"
    let list = try editor.run("list-schemas")
    #expect(list.status == 0)
    #expect(
      list.output.split(separator: "\n").first == "old\tOld.Settings\told-app\t(program gone)")
    #expect(
      list.error
        == "settings-editor: \(shown)/Bad\\xFE.plist: cannot be read: XML property list, line 1: <key> is not closed\n"
    )
    let removed = try editor.run("schema", "remove", "--gone")
    #expect(removed.status == 0)
    #expect(removed.output == shown + "/Old.Settings@old.plist\n")
    #expect(!gone.exists)
    #expect(bad.exists, "an unusable file is no schema of a program gone")
  }

  /// Issue 22: a schema file or program folder of the user's folder that is a symbolic link is
  /// refused, with one line naming it (it was read wherever it led).
  @Test func linksInTheUsersFolderAreRefusedNamingThem() throws {
    let elsewhere = editor.preferences.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let target = elsewhere.appendingPathComponent("Evil.Settings@evil.plist")
    let root: [String: Any] = [
      "format": 1, "program": ["name": "evil"], "module": "Evil", "class": "Settings",
      "store": ["suite": "evil"], "prefix": "", "keys": [],
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: target)
    let file = editor.publishedSchemas.appendingPathComponent("evil/Evil.Settings@evil.plist")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
    let folder = editor.publishedSchemas.appendingPathComponent("linked")
    try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: elsewhere)
    let result = try editor.run("list-schemas")
    #expect(result.status == 0)
    #expect(result.output.split(separator: "\n").count == 2, "the probe's schemas only")
    let reason = "it is a symbolic link, and the user's schema folder takes no links"
    #expect(
      result.error == """
        settings-editor: \(folder.path): not read: \(reason)
        settings-editor: \(file.path): cannot be read: \(reason)

        """)
  }

  /// Issue 22: `schema remove` skips a program folder it refused to read (a symbolic link),
  /// saying so, instead of failing (`remove <program>`) or deleting what the link leads to.
  @Test func schemaRemoveSkipsAProgramFolderItRefusedToRead() throws {
    let elsewhere = editor.preferences.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let target = elsewhere.appendingPathComponent("Old.Settings@old.plist")
    let root: [String: Any] = [
      "format": 1, "program": ["name": "old-app", "executable": "/nonexistent/old-app"],
      "module": "Old", "class": "Settings", "store": ["suite": "old"], "prefix": "", "keys": [],
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: target)
    let folder = editor.publishedSchemas.appendingPathComponent("old-app")
    try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: elsewhere)
    let skipped = """
      settings-editor: skipped \(folder.path): not read (it is a symbolic link, and the user's \
      schema folder takes no links); nothing in it was removed

      """
    for arguments in [["schema", "remove", "old-app"], ["schema", "remove", "--gone"]] {
      let result = try editor.run(arguments)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.output == "", "\(arguments)")
      #expect(result.error == skipped, "\(arguments)")
      #expect(FileManager.default.fileExists(atPath: target.path), "\(arguments)")
    }
  }

  /// Issue 22: an installed schema that describes a key of the probe's suite otherwise — the
  /// user's folder comes first, so the probe's description wins; list-schemas names the
  /// conflict on standard error, describe in a `conflict:` line, and write checks the winner's.
  @Test func aConflictIsWonByTheFirstInSearchOrderAndNamed() throws {
    let hidden = editor.preferences.appendingPathComponent(
      "installed/ObservableDefaults/schemas/other-app/Other.Settings@\(suite).plist")
    try FileManager.default.createDirectory(
      at: hidden.deletingLastPathComponent(), withIntermediateDirectories: true)
    let key: [String: Any] = [
      "name": "scrollback", "key": "scrollback", "type": "String", "kind": "string",
      "optional": false, "storedForm": "string", "default": "many",
    ]
    let root: [String: Any] = [
      "format": 1, "program": ["name": "other-app"], "module": "Other", "class": "Settings",
      "store": ["suite": suite], "prefix": "", "keys": [key],
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: hidden)
    let winner = editor.publishedSchemas.appendingPathComponent(
      "schema-probe/schema_probe.ProbeAppSettings@\(suite).plist")

    let list = try editor.run("list-schemas")
    #expect(list.status == 0)
    #expect(list.output.split(separator: "\n").last == "\(suite)\tOther.Settings\tother-app")
    #expect(
      list.error == """
        settings-editor: conflict: \(hidden.path) describes scrollback of \(suite) otherwise \
        than \(winner.path), which comes first; its description is hidden

        """)
    let lines = try editor.run("describe", suite, "scrollback").output.split(separator: "\n")
    #expect(
      lines.prefix(4) == [
        "key: scrollback", "schema: schema_probe.ProbeAppSettings of schema-probe",
        "conflict: \(hidden.path) describes this key otherwise and is hidden (\(winner.path) comes first)",
        "type: Int16",
      ])
    #expect(try editor.run("write", suite, "scrollback", "many").status == 65)
    #expect(try editor.run("write", suite, "scrollback", "-int", "5").status == 0)
  }

  /// Issue 22: the program folders are read by descriptor a batch at a time: 300 programs are
  /// listed with at most 128 files open (holding every folder open, most were refused with
  /// "Too many open files").
  @Test func manyProgramsAreListedWithFewFilesOpen() throws {
    for index in 0..<300 {
      let program = "app\(index)"
      let file = editor.publishedSchemas.appendingPathComponent(
        "\(program)/App.Settings@\(program).plist")
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      let root: [String: Any] = [
        "format": 1, "program": ["name": program], "module": "App", "class": "Settings",
        "store": ["suite": program], "prefix": "", "keys": [],
      ]
      try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        .write(to: file)
    }
    let result = try editor.run(openFileLimit: 128, "list-schemas")
    #expect(result.status == 0)
    #expect(result.error == "")
    #expect(result.output.split(separator: "\n").count == 302, "the probe's two and 300")
  }

  @Test func anUnusableFileIsNamedAndTheOthersStillListed() throws {
    let bad = editor.publishedSchemas.appendingPathComponent("bad/Bad.Settings@bad.plist")
    try FileManager.default.createDirectory(
      at: bad.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("<plist><dict>\u{1B}[2J".utf8).write(to: bad)
    let result = try editor.run("list-schemas")
    #expect(result.status == 0)
    #expect(result.output.split(separator: "\n").count == 2)
    #expect(result.error.hasPrefix("settings-editor: \(bad.path): cannot be read: "))
    #expect(!result.error.contains("\u{1B}"))
  }

  @Test func textFromASchemaIsEscaped() throws {
    let url = editor.publishedSchemas.appendingPathComponent("evil/Evil.Settings@evil.plist")
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let key: [String: Any] = [
      "name": "k", "key": "k", "type": "String", "kind": "string", "optional": false,
      "storedForm": "string", "summary": "clear\u{1B}[2Jscreen", "default": "\u{07}bell",
    ]
    let root: [String: Any] = [
      "format": 1, "program": ["name": "evil"], "module": "Evil", "class": "Settings",
      "store": ["suite": "evil"], "prefix": "", "keys": [key],
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: url)
    let output = try editor.run("describe", "evil", "k").output
    #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(output.contains("default: \\u{7}bell"), "\(output)")
    #expect(output.contains("summary: clear\\u{1b}[2Jscreen"), "\(output)")
  }
}
