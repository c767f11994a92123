import Foundation
import TestSupport
import Testing

/// `export --json` sorts keys by their Unicode scalars, as python's `json.dumps(sort_keys=True)`
/// and `jq -S` do and, for these keys, the XML export; it sorted them with `NSString`'s
/// numeric, case-insensitive comparison (`a9` before `a10`, `B` between `a` and `d`), which took
/// 3.7 s for 100,000 keys.
@Suite struct JSONExportOrderTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test func keysAreSortedByTheirScalarsAtEveryLevel() throws {
    for key in ["B", "a", "a10", "a9", "\u{E9}", "Z"] {
      #expect(try editor.run("write", "order.json", key, "-int", "1").status == 0)
    }
    #expect(
      try editor.run("write", "order.json", "d", "-dict", "z", "1", "A", "2", "b", "3").status
        == 0)
    #expect(try editor.run("write", "order.json", "r", "-float", "1e100").status == 0)
    #expect(
      try editor.run("write", "order.json", "big", "-int", "-9223372036854775808").status == 0)
    let json = try editor.run("export", "order.json", "--json")
    #expect(json.status == 0, "\(json.error)")
    #expect(
      json.output == """
        {
          "B" : 1,
          "Z" : 1,
          "a" : 1,
          "a10" : 1,
          "a9" : 1,
          "big" : -9223372036854775808,
          "d" : {
            "A" : "2",
            "b" : "3",
            "z" : "1"
          },
          "r" : 1e+100,
          "\u{E9}" : 1
        }

        """)
    let xml = try editor.run("export", "order.json")
    let xmlKeys = xml.output.matches(of: /<key>([^<]*)<\/key>/).map { String($0.1) }
    #expect(xmlKeys == ["B", "Z", "a", "a10", "a9", "big", "d", "A", "b", "z", "r", "\u{E9}"])
  }

  /// Many keys that differ only in Unicode normalization (each pair written through one
  /// placeholder) are each written once, where their scalars sort them, as python's `json`
  /// reads them.
  @Test func manyKeysThatDifferOnlyInNormalizationAreEachInPlace() throws {
    let file = editor.preferences.appendingPathComponent("pairs.plist")
    let make = #"""
      import plistlib,sys
      d={('\u00e9' if i%2 else 'e\u0301')+str(i//2):i for i in range(600)}
      plistlib.dump(d,open(sys.argv[1],'wb'),fmt=plistlib.FMT_BINARY)
      """#
    #expect(try ChildProcess.runCommand("python3", ["-c", make, file.path]).status == 0)
    let result = try editor.run("export", file.path, "--json")
    #expect(result.status == 0, "\(result.error)")
    let exported = editor.preferences.appendingPathComponent("pairs.json")
    try Data(result.output.utf8).write(to: exported)
    let check = #"""
      import json,plistlib,sys
      pairs=json.load(open(sys.argv[1]),object_pairs_hook=list)
      keys=[k for k,v in pairs]
      print(len(keys),len(set(keys)),dict(pairs)==plistlib.load(open(sys.argv[2],'rb')),keys==sorted(keys))
      """#
    let read = try ChildProcess.runCommand("python3", ["-c", check, exported.path, file.path])
    #expect(read.output == "600 600 True True\n", "\(read.error)")
  }
}
