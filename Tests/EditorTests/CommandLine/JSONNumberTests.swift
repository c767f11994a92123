import Foundation
import TestSupport
import Testing

/// Numbers keep their kind through `export --json` and `import --json`: `JSONSerialization` read
/// `-9223372036854775808` (`Int64.min`, which `export --json` writes) as a real, and
/// `JSONEncoder` wrote a real with no fraction (`1.0`) as an integer (`1`).
@Suite struct JSONNumberTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test func theIntegersAtEitherEndOfTheRangeStayIntegers() throws {
    let input = #"""
      {"min": -9223372036854775808, "max": 9223372036854775807, "umax": 18446744073709551615,
       "nested": [-9223372036854775808, {"k": -9223372036854775808}],
       "text": "-9223372036854775808", "real": -9223372036854775808.0, "zero": -0}
      """#
    let result = try editor.run(["import", "ints.json", "-", "--json"], input: Data(input.utf8))
    #expect(result.status == 0, "\(result.error)")
    for (key, type) in [
      ("min", "integer"), ("max", "integer"), ("umax", "integer"), ("text", "string"),
      ("real", "float"), ("zero", "integer"),
    ] {
      #expect(try editor.run("read-type", "ints.json", key).output == "Type is \(type)\n", "\(key)")
    }
    #expect(
      try editor.run("read", "ints.json").output == """
        {
            max = 9223372036854775807;
            min = -9223372036854775808;
            nested = (
                -9223372036854775808,
                {
                    k = -9223372036854775808;
                }
            );
            real = -9.223372036854776e+18;
            text = -9223372036854775808;
            umax = 18446744073709551615;
            zero = 0;
        }

        """)
    // What export writes, import reads back the same.
    let exported = try editor.run("export", "ints.json", "--json").output
    #expect(
      try editor.run(["import", "ints.again", "-", "--json"], input: Data(exported.utf8)).status
        == 0)
    #expect(try editor.run("read-type", "ints.again", "min").output == "Type is integer\n")
    #expect(try editor.run("export", "ints.again", "--json").output == exported)
  }

  @Test func realsWithNoFractionKeepItThroughExportAndImport() throws {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>one</key><real>1</real><key>negativeZero</key><real>-0</real>
      <key>hundred</key><real>100</real><key>large</key><real>1e16</real>
      <key>half</key><real>0.5</real><key>integer</key><integer>2</integer>
      <key>nested</key><array><real>3</real><dict><key>r</key><real>-4</real></dict></array>
      </dict></plist>
      """
    #expect(try editor.run(["import", "reals", "-"], input: Data(plist.utf8)).status == 0)
    let exported = try editor.run("export", "reals", "--json").output
    #expect(
      exported == """
        {
          "half" : 0.5,
          "hundred" : 100.0,
          "integer" : 2,
          "large" : 1e+16,
          "negativeZero" : -0.0,
          "nested" : [
            3.0,
            {
              "r" : -4.0
            }
          ],
          "one" : 1.0
        }

        """)
    #expect(
      try editor.run(["import", "reals.again", "-", "--json"], input: Data(exported.utf8)).status
        == 0)
    for key in ["one", "negativeZero", "hundred", "large", "half"] {
      #expect(try editor.run("read-type", "reals.again", key).output == "Type is float\n", "\(key)")
    }
    #expect(try editor.run("read-type", "reals.again", "integer").output == "Type is integer\n")
    #expect(try editor.run("export", "reals.again", "--json").output == exported)
  }

  /// `JSONSerialization` read a negative integer of 19 digits as a rounded real, and reals a
  /// few units in the last place off: every number is read exactly now.
  @Test func everyNumberIsReadExactly() throws {
    let input = """
      {"n19": -1234567890123456789, "n": -9223372036854775807, "r1": -23957.515365261122,
       "r2": -1.2719246934527984e-05, "tiny": 5e-324, "max": 1.7976931348623157e+308,
       "tenth": 0.1, "list": [-1000000000000000000, 2.5e-3]}
      """
    let result = try editor.run(["import", "exact", "-", "--json"], input: Data(input.utf8))
    #expect(result.status == 0, "\(result.error)")
    #expect(
      try editor.run("export", "exact", "--json").output == """
        {
          "list" : [
            -1000000000000000000,
            0.0025
          ],
          "max" : 1.7976931348623157e+308,
          "n" : -9223372036854775807,
          "n19" : -1234567890123456789,
          "r1" : -23957.515365261122,
          "r2" : -1.2719246934527984e-05,
          "tenth" : 0.1,
          "tiny" : 5e-324
        }

        """)
    #expect(try editor.run("read-type", "exact", "n19").output == "Type is integer\n")
  }
}
