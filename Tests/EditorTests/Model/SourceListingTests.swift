import Testing

@testable import SettingsEditor

/// Sources that come and go from the objects pane (a suite's "other keys"): the focus stays on
/// its source, or moves to the source a removed one was listed after; undo lists a removed
/// source again to change it (issue 42).
@MainActor
@Suite struct SourceListingTests {
  private let anchor = SampleRowSource()
  private let group = SampleRowSource()
  private let last = SampleRowSource()

  @Test func aSourceTakenOffTheListKeepsTheFocusOnAnother() {
    let session = EditorSession(sources: [anchor, group, last])
    session.state.sourceIndex = 2
    #expect(session.unlist(group, after: ObjectIdentifier(anchor)) == Damage(objects: true))
    #expect(session.sources.count == 2)
    #expect(session.state.sourceIndex == 1, "still the last source")
    #expect(session.unlist(group, after: ObjectIdentifier(anchor)) == Damage(), "not listed")
  }

  @Test func theShownSourceTakenOffTheListShowsItsAnchor() {
    let session = EditorSession(sources: [last, anchor, group])
    session.state.sourceIndex = 2
    session.state.rowIndex = 2
    #expect(
      session.unlist(group, after: ObjectIdentifier(anchor))
        == Damage(layout: true, objects: true))
    #expect(session.state.sourceIndex == 1)
    #expect(session.state.rowIndex == 0)
    #expect(
      session.state.message?.text == "Sample holds no keys now: listed again when one is written")
  }

  @Test func undoListsItsSourceAgainAfterItsAnchor() {
    let session = EditorSession(sources: [anchor, group, last])
    session.undoSteps.append(
      EditorSession.UndoStep(
        label: "age", source: ObjectIdentifier(group), rows: [(1, .stored(20))]))
    _ = session.unlist(group, after: ObjectIdentifier(anchor))
    session.state.sourceIndex = 1  // the last source
    #expect(session.undo() == Damage(layout: true))
    #expect(
      session.sources.map(ObjectIdentifier.init)
        == [anchor, group, last].map(ObjectIdentifier.init))
    #expect(session.state.sourceIndex == 1)
    // The sample source restores nothing: the undo reaches it, listed again.
    #expect(session.state.message?.text == "Could not undo age: Sample cannot undo")
  }
}
