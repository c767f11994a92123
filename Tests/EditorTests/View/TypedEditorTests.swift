import Foundation
import ObservableDefaults
import Testing

@testable import SettingsEditor

/// Every editor type through the keys a user presses: valid input is stored with its type,
/// invalid input is refused with a message naming the key, the type and the reason, and
/// nothing is written.
@MainActor
@Suite struct TypedEditorTests {
  private let suite = TestPreferences.uniqueSuite()
  private let settings: EditorTypeSettings
  private let session: EditorSession

  init() {
    settings = EditorTypeSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    session = EditorSession(sources: [SettingsObjectRows(AnySettings(settings))])
  }

  /// Opens the focused row's editor, replaces its text with `text` and presses Enter.
  private func enter(_ text: String, into name: String) throws {
    try session.focus(name)
    session.press(.enter)
    guard case .editing(_, _, let field) = session.state.mode else {
      Issue.record("\(name) opens no line editor")
      return
    }
    for _ in field.text { session.press(.backspace) }
    for character in text { session.press(.character(character)) }
    session.press(.enter)
  }

  private func isStored(_ key: String) -> Bool {
    settings._$settingsStore.store.object(forKey: key) != nil
  }

  /// Expects the refusal message; `wasStored`: whether the key held a value before (it is
  /// checked unchanged by the caller).
  private func expectRefusal(_ fragment: String, for name: String, wasStored: Bool = false) {
    let message = session.state.message
    #expect(message?.isError == true)
    #expect(message?.text.hasPrefix("\(name) (") == true, "names the key: \(message?.text ?? "")")
    #expect(message?.text.contains(fragment) == true, "\(message?.text ?? "")")
    #expect(isStored(name) == wasStored, "nothing written for \(name)")
  }

  @Test func anEnumCyclesWithArrowsAndSpaceAndWraps() throws {
    try session.focus("mood")
    session.press(.right)
    #expect(settings.mood == .busy)
    session.press(.character(" "), .character(" "))
    #expect(settings.mood == .calm, "wraps")
    session.press(.left)
    #expect(settings.mood == .away)
    #expect(session.state.pane == .rows, "← on an enum row does not leave the pane")
  }

  @Test func anIntEnumAndAnOptionalEnumIncludingNil() throws {
    try session.focus("interval")
    session.press(.right)
    #expect(settings.interval == .never, "wraps from the last case")
    try session.focus("status")
    session.press(.right)
    #expect(settings.status == .calm)
    session.press(.left)
    #expect(settings.status == nil)
    #expect(session.focusedRow?.editing.allowedValues == ["calm", "busy", "away", "nil"])
  }

  @Test func anIntegerWithinItsWidth() throws {
    try enter("-100", into: "volume")
    #expect(settings.volume == -100)
    try enter("300", into: "volume")
    #expect(session.state.message?.text.contains("out of range -128…127 (Int8 expected)") == true)
    #expect(settings.volume == -100)
    session.press(.escape)
    try enter("x", into: "ratio")
    expectRefusal("not a number (Double expected)", for: "ratio")
  }

  @Test func aDoubleAndAStringWithWideCharacters() throws {
    try enter("2.25", into: "ratio")
    #expect(settings.ratio == 2.25)
    try enter("日本語 🎉 é", into: "greeting")
    #expect(settings.greeting == "日本語 🎉 é")
  }

  @Test func aDateInISO8601() throws {
    try enter("2026-01-31T09:30:00Z", into: "started")
    #expect(settings.started == (try Date("2026-01-31T09:30:00Z", strategy: .iso8601)))
    try enter("tomorrow", into: "started")
    #expect(session.state.message?.text.contains("not a date that exists, in ISO 8601") == true)
    session.press(.escape)
    // A day or time that does not exist is refused, not moved to a later date.
    try enter("2024-02-30T25:61:00Z", into: "started")
    #expect(session.state.message?.text.contains("not a date that exists") == true)
    #expect(settings.started == (try Date("2026-01-31T09:30:00Z", strategy: .iso8601)))
    session.press(.escape)
    // The forms `write -date` takes besides ISO 8601: what `defaults read` prints, and a day.
    try enter("2024-02-29 23:30:00 +0100", into: "started")
    #expect(settings.started == (try Date("2024-02-29T22:30:00Z", strategy: .iso8601)))
    try enter("2024-03-01", into: "started")
    #expect(settings.started == (try Date("2024-03-01T00:00:00Z", strategy: .iso8601)))
  }

  @Test func aURLAndAnOptionalURL() throws {
    try enter("no scheme", into: "homepage")
    expectRefusal(
      "not a URL with a scheme like https://example.com (URL expected)", for: "homepage")
    session.press(.escape)
    try enter("https://swift.org", into: "proxy")
    #expect(settings.proxy == URL(string: "https://swift.org"))
    try enter("", into: "proxy")
    #expect(settings.proxy == nil)
  }

  @Test func arraysAndDictionariesAsJSON() throws {
    try enter(#"["x", "y"]"#, into: "tags")
    #expect(settings.tags == ["x", "y"])
    try enter(#"{"a": 2, "b": 3}"#, into: "limits")
    #expect(settings.limits == ["a": 2, "b": 3])
    session.press(.escape)
    try enter(#"["x", "#, into: "tags")
    #expect(session.state.message?.text.contains("not valid JSON") == true)
    session.press(.escape)
    try enter(#"{"a": "two"}"#, into: "limits")
    #expect(session.state.message?.text.contains("does not decode") == true)
    #expect(settings.limits == ["a": 2, "b": 3])
  }

  @Test func aCodableStructAsJSON() throws {
    try session.focus("frame")
    #expect(session.focusedRow?.value == #"{"height":600,"width":800}"#)
    try enter(#"{"width": 1024, "height": 768}"#, into: "frame")
    #expect(settings.frame == Frame(width: 1024, height: 768))
    try enter(#"{"width": "wide"}"#, into: "frame")
    expectRefusal("does not decode", for: "frame", wasStored: true)
    #expect(settings.frame == Frame(width: 1024, height: 768))
  }

  @Test func dataIsEditedAsHexLikeASuitesData() throws {
    try session.focus("token")
    #expect(session.focusedRow?.value == "<2 bytes: cafe>")
    #expect(
      session.focusedRow?.editing
        == .text(TextValueFormat(base: .propertyList(.data)), text: "cafe"))
    try enter("deadbeef", into: "token")
    #expect(settings.token == Data([0xDE, 0xAD, 0xBE, 0xEF]))
    #expect(session.focusedRow?.value == "<4 bytes: deadbeef>")
    try enter("xyz", into: "token")
    expectRefusal("hexadecimal bytes", for: "token", wasStored: true)
    #expect(settings.token == Data([0xDE, 0xAD, 0xBE, 0xEF]))
  }

  @Test func escRestoresTheValueAndTheText() throws {
    try session.focus("greeting")
    session.press(.enter, .backspace, .character("o"), .escape)
    #expect(settings.greeting == "hi")
    #expect(session.state.mode == .browsing)
    session.press(.enter)
    guard case .editing(_, _, let field) = session.state.mode else {
      Issue.record("no editor")
      return
    }
    #expect(field.text == "hi", "the draft was dropped")
  }
}
