import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// The keys of a raw suite and of a file opened by path: `a` adds a typed key or an array
/// element, `R` renames, `d` removes a key or an element, `u` undoes each.
@MainActor
@Suite struct RawSuiteKeyTests {
  @Test func addRenameAndArrayElements() throws {
    let (suite, writer) = try TestPreferences.suite(["list": ["a", "b"]])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (canvas, session, screen) = TestScreen.show(domain, rows: 12)
    func press(_ keys: KeyPress...) { for key in keys { screen.draw(session.handle(key)) } }
    func type(_ text: String) { for character in text { press(.character(character)) } }

    // A typed key.
    press(.character("a"))
    #expect(canvas.line(10).hasPrefix(" New key of \(suite) (key [-type] value):"))
    type("volume -int 7")
    press(.enter)
    #expect(writer.persistentValue(forKey: "volume") as? Int == 7)
    #expect(session.focusedRow?.key == "volume")
    press(.character("a"))
    type("bad -int x")
    press(.enter)
    #expect(session.state.message?.text.hasPrefix("Not saved: ") == true)
    press(.escape)

    // Renamed, and back with u.
    press(.character("R"), .character("\u{15}"))
    type("loudness")
    press(.enter)
    #expect(writer.persistentValue(forKey: "loudness") as? Int == 7)
    #expect(writer.persistentValue(forKey: "volume") == nil)
    press(.character("u"))
    #expect(writer.persistentValue(forKey: "volume") as? Int == 7)
    #expect(writer.persistentValue(forKey: "loudness") == nil)

    // Array elements: appended, removed, put back.
    press(.home, .enter, .character("a"))  // list ▾, then add to it
    type("-int 3")
    press(.enter)
    #expect(writer.persistentValue(forKey: "list") as? [AnyHashable] == ["a", "b", 3])
    press(.home, .down, .character("d"))  // [0]
    #expect(writer.persistentValue(forKey: "list") as? [AnyHashable] == ["b", 3])
    press(.character("u"))
    #expect(writer.persistentValue(forKey: "list") as? [AnyHashable] == ["a", "b", 3])
  }

  @Test func addRenameRemoveAndArrayElementsInABinaryFileOpenedByPath() throws {
    let url = TestPreferences.folder.appendingPathComponent("\(UUID().uuidString).plist")
    try PropertyListSerialization.data(
      fromPropertyList: ["list": ["a", "b"], "keep": 1], format: .binary, options: 0
    ).write(to: url)
    let domain = try PropertyListFileRows(file: url)
    let (_, session, screen) = TestScreen.show(domain, rows: 12)
    func press(_ keys: KeyPress...) { for key in keys { screen.draw(session.handle(key)) } }
    func type(_ text: String) { for character in text { press(.character(character)) } }
    func onDisk() throws -> [String: Any] {
      let document = try #require(try PropertyListFile(url: url).read())
      #expect(document.format == .binary, "the file stays binary")
      return document.values.stringKeyed
    }

    press(.character("a"))
    type("volume -int 7")
    press(.enter)
    #expect(try onDisk()["volume"] as? Int == 7)
    #expect(session.focusedRow?.key == "volume")

    press(.character("R"), .character("\u{15}"))
    type("loudness")
    press(.enter)
    #expect(try onDisk()["loudness"] as? Int == 7)
    #expect(try onDisk()["volume"] == nil)
    press(.character("u"))
    #expect(try onDisk()["volume"] as? Int == 7)
    #expect(try onDisk()["loudness"] == nil)

    press(.home, .down, .enter, .character("a"))  // keep, list ▾, then add to it
    type("-int 3")
    press(.enter)
    #expect(try onDisk()["list"] as? [AnyHashable] == ["a", "b", 3])
    press(.home, .down, .down, .character("d"))  // [0]
    #expect(try onDisk()["list"] as? [AnyHashable] == ["b", 3])
    press(.character("u"))
    #expect(try onDisk()["list"] as? [AnyHashable] == ["a", "b", 3])

    press(.home, .character("d"))  // keep
    #expect(try onDisk()["keep"] == nil)
    press(.character("u"))
    #expect(try onDisk()["keep"] as? Int == 1)
  }
}
