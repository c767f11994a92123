import Foundation
import TestSupport
import Testing

/// A suite's dictionary whose one key is `$date` or `$data` (with any number of `$` before it)
/// goes through `export --json` and `import --json` as the dictionary it is: `{"$date":
/// "hello"}` was refused on import, and `{"$data": "AAAA"}` came back as data.
@Suite struct JSONMarkerKeyTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test func dictionariesWithAMarkersKeyComeBackAsTheyWere() throws {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>text</key><dict><key>$date</key><string>hello</string></dict>
      <key>bytes</key><dict><key>$data</key><string>AAAA</string></dict>
      <key>more</key><dict><key>$$date</key><integer>5</integer></dict>
      <key>two</key><dict><key>$date</key><integer>1</integer><key>x</key><integer>2</integer></dict>
      <key>when</key><date>2020-01-01T00:00:00Z</date>
      <key>blob</key><data>AAAA</data>
      </dict></plist>
      """
    #expect(try editor.run(["import", "markers", "-"], input: Data(plist.utf8)).status == 0)
    let exported = try editor.run("export", "markers", "--json").output
    #expect(
      exported == """
        {
          "blob" : {
            "$data" : "AAAA"
          },
          "bytes" : {
            "$$data" : "AAAA"
          },
          "more" : {
            "$$$date" : 5
          },
          "text" : {
            "$$date" : "hello"
          },
          "two" : {
            "$date" : 1,
            "x" : 2
          },
          "when" : {
            "$date" : "2020-01-01T00:00:00Z"
          }
        }

        """)
    let imported = try editor.run(
      ["import", "markers.again", "-", "--json"], input: Data(exported.utf8))
    #expect(imported.status == 0, "\(imported.error)")
    #expect(
      try editor.run("export", "markers.again").output
        == (try editor.run("export", "markers").output))
    #expect(try editor.run("read-type", "markers.again", "text").output == "Type is dictionary\n")
    #expect(try editor.run("read-type", "markers.again", "when").output == "Type is date\n")
  }

  /// At the top, `$date` is a suite's key like any other (the suite is never a date): written
  /// and read as it is (it gained a `$` at each round trip); and a member given twice is one
  /// member, the later, before the markers are told (`{"$data": …, "$data": …}` is data).
  @Test func theTopLevelKeepsItsKeysAndARepeatedMemberIsOne() throws {
    #expect(try editor.run("write", "markers.top", "$date", "hello").status == 0)
    let exported = try editor.run("export", "markers.top", "--json").output
    #expect(exported == "{\n  \"$date\" : \"hello\"\n}\n")
    #expect(
      try editor.run(["import", "markers.top", "-", "--json"], input: Data(exported.utf8)).status
        == 0)
    #expect(try editor.run("export", "markers.top", "--json").output == exported)
    let repeated =
      #"{"d": {"$data": "AA==", "$data": "AQ=="}, "k": {"$$date": "a", "$$date": "b"}}"#
    #expect(
      try editor.run(["import", "markers.twice", "-", "--json"], input: Data(repeated.utf8))
        .status == 0)
    #expect(try editor.run("read-type", "markers.twice", "d").output == "Type is data\n")
    #expect(
      try editor.run("export", "markers.twice", "--json").output == """
        {
          "d" : {
            "$data" : "AQ=="
          },
          "k" : {
            "$$date" : "b"
          }
        }

        """)
  }
}
