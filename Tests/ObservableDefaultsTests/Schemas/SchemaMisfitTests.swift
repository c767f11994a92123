import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import Testing

/// What a stored value must be to fit a key of a schema, and how a misfit is told.
@Suite struct SchemaMisfitTests {
  let keys = Dictionary(uniqueKeysWithValues: probeAppSettingsKeys().map { ($0.key, $0) })

  private func misfit(_ key: String, _ value: Any) -> String? {
    keys[key]!.misfit(of: value, key: key)?.description
  }

  @Test func valuesOfTheStoredFormFit() {
    #expect(misfit("displayName", "Ada") == nil)
    #expect(misfit("theme", "sepia") == nil)
    #expect(misfit("scrollback", -32768) == nil)
    #expect(misfit("fontSize", 14) == nil)
    #expect(misfit("showsToolbar", false) == nil)
    #expect(misfit("origin", Data(#"{"x":1,"y":2}"#.utf8)) == nil)
    #expect(misfit("lastFolder", "/tmp") == nil)
  }

  @Test func misfitsNameTheKeyTheSchemasTypeAndTheValue() {
    #expect(
      misfit("scrollback", 40_000)
        == "'scrollback' holds Int16 (an integer from -32768 to 32767) values; the value is an integer (40000)"
    )
    #expect(
      misfit("scrollback", "many")
        == #"'scrollback' holds Int16 (an integer from -32768 to 32767) values; the value is a string ("many")"#
    )
    #expect(
      misfit("theme", "blue")
        == #"'theme' holds Theme (one of "light", "dark", "sepia") values; the value is a string ("blue")"#
    )
    #expect(
      misfit("showsToolbar", 1)
        == "'showsToolbar' holds Bool (a Boolean) values; the value is an integer (1)")
    #expect(
      misfit("origin", Data("{".utf8))
        == "'origin' holds Point (JSON data) values; the value is data of 1 bytes")
    #expect(
      misfit("fontSize", true)
        == "'fontSize' holds Double (a real number) values; the value is a Boolean (true)")
  }
}
