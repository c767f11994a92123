import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// `settings-editor read`, `write` and `delete` address keys by their exact Unicode scalars:
/// `é` as U+00E9 and as `e` U+0301 are two keys of a suite, as in the file and python's
/// `plistlib`.
@Suite(.serialized) struct ExactKeyVerbTests {
  private static let (composed, decomposed) = (PythonPlistlib.composed, PythonPlistlib.decomposed)
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test(arguments: [true, false])
  func readWriteAndDeleteAddressEachFormAlone(binary: Bool) throws {
    let suite = "exact.\(binary ? "binary" : "xml")"
    let file = editor.preferences.appendingPathComponent(suite + ".plist")
    try PythonPlistlib.write(
      [(Self.composed, "composed"), (Self.decomposed, "decomposed")], to: file, binary: binary)

    #expect(try editor.run("write", suite, "other", "x").status == 0)
    #expect(
      try PythonPlistlib.read(file)
        == #"[('e\u0301', 'decomposed'), ('other', 'x'), ('\xe9', 'composed')]"#)
    #expect(try editor.run("write", suite, Self.decomposed, "d2").status == 0)
    #expect(
      try PythonPlistlib.read(file)
        == #"[('e\u0301', 'd2'), ('other', 'x'), ('\xe9', 'composed')]"#)
    #expect(try editor.run("read", suite, Self.composed).output == "composed\n")
    #expect(try editor.run("read", suite, Self.decomposed).output == "d2\n")
    // The whole suite: one line per key, in the order of their scalars (`e` before U+00E9).
    let whole = try editor.run("read", suite).output
    #expect(
      Array(whole.unicodeScalars)
        == Array(
          "{\n    \"e\u{301}\" = d2;\n    other = x;\n    \"\u{E9}\" = composed;\n}\n"
            .unicodeScalars))
    #expect(try editor.run("delete", suite, Self.composed).status == 0)
    #expect(try PythonPlistlib.read(file) == #"[('e\u0301', 'd2'), ('other', 'x')]"#)
  }

  /// `-dict` and `-dict-add` keep nested keys that differ only in Unicode normalization apart:
  /// the second form replaced the first before.
  @Test func dictAndDictAddKeepBothFormsOfANestedKey() throws {
    let suite = "exact.dict"
    let file = editor.preferences.appendingPathComponent(suite + ".plist")
    #expect(try editor.run("write", suite, "m", "-dict", Self.composed, "c", "a", "1").status == 0)
    #expect(try editor.run("write", suite, "m", "-dict-add", Self.decomposed, "d").status == 0)
    #expect(
      try PythonPlistlib.read(file, nestedUnder: "m")
        == #"[('a', '1'), ('e\u0301', 'd'), ('\xe9', 'c')]"#)
    #expect(try editor.run("write", suite, "m", "-dict-add", Self.composed, "c2").status == 0)
    #expect(
      try PythonPlistlib.read(file, nestedUnder: "m")
        == #"[('a', '1'), ('e\u0301', 'd'), ('\xe9', 'c2')]"#)
    #expect(
      try editor.run("write", suite, "n", "-dict", Self.decomposed, "1", Self.composed, "2").status
        == 0)
    #expect(
      try PythonPlistlib.read(file, nestedUnder: "n") == #"[('e\u0301', '1'), ('\xe9', '2')]"#)
  }

  @Test func importReplacesTheSuiteByExactKey() throws {
    let suite = "exact.import"
    let file = editor.preferences.appendingPathComponent(suite + ".plist")
    try PythonPlistlib.write(
      [(Self.composed, "composed"), (Self.decomposed, "decomposed")], to: file, binary: true)
    let input = editor.preferences.appendingPathComponent("input.plist")
    try PythonPlistlib.write([(Self.composed, "c9")], to: input, binary: false)
    #expect(try editor.run("import", suite, input.path).status == 0)
    #expect(try PythonPlistlib.read(file) == #"[('\xe9', 'c9')]"#)
  }

  /// A suite holding `m` (a dictionary of both forms, written by `plistlib`), `other`, and
  /// both forms at the top (written by `settings-editor write`): the composed one `c`, the
  /// decomposed one `d`.
  @discardableResult
  private func suiteForExport(_ suite: String, binary: Bool) throws -> URL {
    let file = editor.preferences.appendingPathComponent(suite + ".plist")
    try PythonPlistlib.write(
      nested: [(Self.composed, "composed"), (Self.decomposed, "decomposed")], under: "m",
      to: file, binary: binary)
    #expect(try editor.run("write", suite, Self.composed, "c").status == 0)
    #expect(try editor.run("write", suite, Self.decomposed, "d").status == 0)
    return file
  }

  /// `export` (XML) writes each key, at the top and in a dictionary value, as `plistlib` reads
  /// the suite.
  @Test(arguments: [true, false])
  func exportKeepsBothFormsAtTheTopAndNested(binary: Bool) throws {
    let suite = "exact.export.\(binary ? "binary" : "xml")"
    let file = try suiteForExport(suite, binary: binary)
    let exported = editor.preferences.appendingPathComponent("exported-\(suite).plist")
    let result = try editor.run("export", suite, exported.path)
    #expect(result.status == 0, "\(result.error)")
    // The suite itself keeps both nested keys through the writes.
    #expect(
      try PythonPlistlib.read(file, nestedUnder: "m")
        == #"[('e\u0301', 'decomposed'), ('\xe9', 'composed')]"#)
    #expect(
      try PythonPlistlib.read(exported, nestedUnder: "m")
        == #"[('e\u0301', 'decomposed'), ('\xe9', 'composed')]"#)
    #expect(try PythonPlistlib.read(exported).hasPrefix(#"[('e\u0301', 'd'), ('m', "#))
    #expect(try PythonPlistlib.read(exported).hasSuffix(#"('other', 'o'), ('\xe9', 'c')]"#))
  }

  /// `export --json` writes each key too, as python's `json` reads the output, in the order of
  /// their scalars.
  @Test func jsonExportKeepsBothFormsAtTheTopAndNested() throws {
    let suite = "exact.export.json"
    try suiteForExport(suite, binary: true)
    let result = try editor.run("export", suite, "--json")
    #expect(result.status == 0, "\(result.error)")
    let exported = editor.preferences.appendingPathComponent("exported.json")
    try Data(result.output.utf8).write(to: exported)
    let script = #"""
      import json,sys
      d=json.load(open(sys.argv[1]))
      print(ascii(sorted((k,v) for k,v in d.items() if k!='m')), ascii(sorted(d['m'].items())))
      print(ascii(list(d)), ascii(list(d['m'])))
      """#
    let read = try ChildProcess.runCommand("python3", ["-c", script, exported.path])
    #expect(
      read.output
        == #"[('e\u0301', 'd'), ('other', 'o'), ('\xe9', 'c')] [('e\u0301', 'decomposed'), ('\xe9', 'composed')]"#
        // In the file, each key where its scalars sort it, the one written through a
        // placeholder too.
        + "\n" + #"['e\u0301', 'm', 'other', '\xe9'] ['e\u0301', '\xe9']"# + "\n", "\(read.error)")
  }

  /// `import --json` of a file python's `json` wrote with both forms, at the top and in a nested
  /// object, makes each a key of the suite, as python reads the JSON and `plistlib` the suite:
  /// with the keys escaped (`\u00e9`, python's default) and as raw UTF-8.
  @Test(arguments: [true, false])
  func jsonImportKeepsBothFormsAtTheTopAndNested(escaped: Bool) throws {
    let suite = "exact.import.json.\(escaped ? "escaped" : "raw")"
    let file = editor.preferences.appendingPathComponent(suite + ".plist")
    let input = editor.preferences.appendingPathComponent("input-\(suite).json")
    let write = #"""
      import json,sys
      d={'\u00e9':'c','e\u0301':'d','m':{'\u00e9':'composed','e\u0301':'decomposed'},'o':[{'k':1}]}
      json.dump(d,open(sys.argv[1],'w',encoding='utf-8'),ensure_ascii=sys.argv[2]=='1')
      """#
    let written = try ChildProcess.runCommand(
      "python3", ["-c", write, input.path, escaped ? "1" : "0"])
    #expect(written.status == 0, "\(written.error)")
    let result = try editor.run("import", suite, input.path, "--json")
    #expect(result.status == 0, "\(result.error)")
    #expect(
      try PythonPlistlib.read(file)
        == #"[('e\u0301', 'd'), ('m', {'e\u0301': 'decomposed', '\xe9': 'composed'}), ('o', [{'k': 1}]), ('\xe9', 'c')]"#
    )
    #expect(
      try PythonPlistlib.read(file, nestedUnder: "m")
        == #"[('e\u0301', 'decomposed'), ('\xe9', 'composed')]"#)
  }

  /// The suite's own `export --json`, imported into another suite, gives the same keys and
  /// values, both forms included.
  @Test func jsonExportImportedAgainKeepsBothForms() throws {
    let suite = "exact.roundtrip.json"
    try suiteForExport(suite, binary: false)
    let exported = try editor.run("export", suite, "--json")
    #expect(exported.status == 0, "\(exported.error)")
    let copy = "exact.roundtrip.copy"
    let imported = try editor.run(
      ["import", copy, "-", "--json"], input: Data(exported.output.utf8))
    #expect(imported.status == 0, "\(imported.error)")
    let original = editor.preferences.appendingPathComponent(suite + ".plist")
    let copied = editor.preferences.appendingPathComponent(copy + ".plist")
    #expect(try PythonPlistlib.read(copied) == PythonPlistlib.read(original))
    #expect(
      try PythonPlistlib.read(copied, nestedUnder: "m")
        == #"[('e\u0301', 'decomposed'), ('\xe9', 'composed')]"#)
  }
}
