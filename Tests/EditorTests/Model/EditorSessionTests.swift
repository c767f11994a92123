import Testing

@testable import SettingsEditor

@MainActor
@Suite struct EditorSessionTests {
  private let source = SampleRowSource()
  private let session: EditorSession

  init() {
    session = EditorSession(sources: [source, SampleRowSource()])
  }

  private func type(_ keys: KeyPress...) {
    for key in keys { _ = session.handle(key) }
  }

  private func type(text: String) {
    for character in text { _ = session.handle(.character(character)) }
  }

  @Test func arrowsMoveAndStopAtTheEnds() {
    #expect(session.handle(.down) == Damage(rows: [0, 1]))
    type(.down, .down, .down)
    #expect(session.state.rowIndex == 2)
    type(.up, .home)
    #expect(session.state.rowIndex == 0)
  }

  @Test func objectsPaneSwitchesTheShownSource() {
    #expect(session.handle(.tab) == Damage(layout: true))
    #expect(session.handle(.down).layout)
    #expect(session.state.sourceIndex == 1)
    type(.enter)
    #expect(session.state.pane == .rows)
  }

  @Test func enterEditsAnIntAndStoresIt() {
    type(.down, .enter)
    #expect(
      session.state.mode
        == .editing(
          row: 1, format: TextValueFormat(base: .integer(name: "Int", bitWidth: 64, signed: true)),
          field: LineEditor(text: "20")))
    type(.backspace, .backspace)
    type(text: "42")
    type(.enter)
    #expect(source.object.age == 42)
    #expect(session.state.mode == .browsing)
    #expect(session.state.message == .init(text: "Saved age = 42", isError: false))
  }

  @Test func lettersInAnIntAreRefusedAndTheValueStays() {
    type(.down, .enter)
    type(text: "x")
    type(.enter)
    #expect(source.object.age == 20)
    #expect(session.state.message?.isError == true)
    #expect(
      session.state.message?.text.contains("not a whole number (Int expected): \"20x\"") == true)
    guard case .editing = session.state.mode else {
      Issue.record("the field stays open to fix the input")
      return
    }
    type(.escape)
    #expect(session.state.mode == .browsing)
    #expect(source.object.age == 20)
  }

  @Test func spaceTogglesABool() {
    type(.end, .character(" "))
    #expect(source.object.isEnabled)
    type(.character(" "))
    #expect(!source.object.isEnabled)
  }

  @Test func spaceOnATextRowExplainsInsteadOfEditing() {
    type(.character(" "))
    #expect(session.state.mode == .browsing)
    #expect(session.state.message?.text.contains("Enter edits name") == true)
  }

  @Test func qQuitsButTypesInsideAField() {
    type(.enter, .character("q"))
    #expect(!session.state.isFinished)
    type(.escape, .character("q"))
    #expect(session.state.isFinished)
    #expect(source.object.name == "Fatbobman")
  }
}
