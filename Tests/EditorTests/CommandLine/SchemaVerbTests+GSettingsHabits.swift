import Foundation
import TestSupport
import Testing

/// The command line as a gsettings user expects it, on the schemas a separate program
/// (`schema-probe`) published: an unset key reads as its default, `-json` writes a `Codable`
/// value checked against the schema, `-array-add` starts from the default, a value the schema
/// cannot check is written with a warning, a too-large integer is out of range.
extension SchemaVerbTests {
  @Test func readOfAnUnsetKeyPrintsItsSchemasDefaultAndSaysSo() throws {
    let unset = try editor.run("read", suite, "scrollback")
    #expect(unset.status == 0)
    #expect(unset.output == "1000\n")
    #expect(
      unset.error
        == "settings-editor: note: scrollback is not set in \(suite): this is its default "
        + "(schema schema_probe.ProbeAppSettings of schema-probe)\n")
    // A stored value is read as it is, with no note.
    #expect(try editor.run("write", suite, "scrollback", "-int", "7").status == 0)
    let stored = try editor.run("read", suite, "scrollback")
    #expect((stored.status, stored.output, stored.error) == (0, "7\n", ""))
    // A key no schema lists is still missing.
    let missing = try editor.run("read", suite, "nmae")
    #expect(missing.status == 1)
    #expect(missing.error == "settings-editor: the key nmae does not exist in suite \(suite)\n")
  }

  @Test func jsonWritesACodableValueCheckedAgainstTheSchema() throws {
    let written = try editor.run("write", suite, "origin", "-json", #"{"x":3,"y":4}"#)
    #expect((written.status, written.error) == (0, ""))
    #expect(try editor.run("read", suite, "origin").output == "{\"x\":3,\"y\":4}\n")
    #expect(try editor.runSchemaProbe("print").output.contains("origin=3,4"))
    // Text that is not JSON is refused, and nothing is stored.
    let broken = try editor.run("write", suite, "origin", "-json", "{x:")
    #expect(broken.status == 65)
    #expect(broken.error.hasPrefix("settings-editor: \"{x:\" is not JSON ("))
    // JSON where the schema wants an integer is refused with the schema's words.
    let misfit = try editor.run("write", suite, "scrollback", "-json", "12")
    #expect(misfit.status == 65)
    #expect(
      misfit.error
        == "settings-editor: \(suite): 'scrollback' holds Int16 (an integer from -32768 to 32767) "
        + "values; the value is data of 2 bytes (schema schema_probe.ProbeAppSettings of "
        + "schema-probe)\n")
  }

  @Test func arrayAddOnAnUnsetKeyStartsFromTheSchemasDefault() throws {
    let added = try editor.run("write", suite, "recentFiles", "-array-add", "todo.txt")
    #expect((added.status, added.error) == (0, ""))
    #expect(
      try editor.run("read", suite, "recentFiles").output == "(\n    notes.txt,\n    todo.txt\n)\n")
  }

  @Test func aValueTheSchemaCannotCheckIsWrittenWithAWarning() throws {
    let written = try editor.run("write", suite, "density", "huge")
    #expect(written.status == 0)
    #expect(
      written.error
        == "settings-editor: warning: the schema lists no values of Density (not CaseIterable): "
        + "density was checked as a string only\n")
    #expect(try editor.run("read", suite, "density").output == "huge\n")
    // A CaseIterable enumeration is checked: no warning.
    let checked = try editor.run("write", suite, "theme", "dark")
    #expect((checked.status, checked.error) == (0, ""))
  }

  @Test func anIntegerTooLargeIsOutOfRange() throws {
    let result = try editor.run(
      "write", "com.example.numbers", "big", "-int", "99999999999999999999")
    #expect(result.status == 65)
    #expect(
      result.error
        == "settings-editor: \"99999999999999999999\" is out of range for an integer "
        + "(-9223372036854775808 to 18446744073709551615)\n")
    let word = try editor.run("write", "com.example.numbers", "big", "-int", "twenty")
    #expect(
      word.error
        == "settings-editor: \"twenty\" is not an integer (whole number up to 18446744073709551615)\n"
    )
  }

  @Test func listKeysAllAddsTheKeysASuiteStoresBesideItsSchemas() throws {
    #expect(try editor.run("write", suite, "nmae", "x").status == 0)
    let result = try editor.run("list-keys", "--all", suite)
    #expect(result.status == 0)
    #expect(
      result.output
        == "displayName\ntheme\nscrollback\nfontSize\nshowsToolbar\norigin\nlastFolder\nhomePage\n"
        + "recentFiles\ndensity\ntabWidth\nnmae\n")
    #expect(try editor.run("write", "com.example.plain", "b", "1").status == 0)
    #expect(try editor.run("write", "com.example.plain", "a", "2").status == 0)
    #expect(try editor.run("list-keys", "--all", "com.example.plain").output == "a\nb\n")
  }
}
