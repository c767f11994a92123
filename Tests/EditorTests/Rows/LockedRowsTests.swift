import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// A settings object on a suite an administrator set values for (a temporary folder stands for
/// `/etc/xdg`): a mandatory property is marked `#`, says why on the context line and refuses
/// edits; a system-wide default says where it comes from; a change of the system files redraws
/// only the rows whose value changed.
@MainActor
@Suite struct LockedRowsTests {
  private let suite = TestPreferences.uniqueSuite()
  private let system: TemporaryFolder

  init() throws {
    system = try TemporaryFolder()
  }

  private var lock: URL { SystemConfigFolder(system.url).mandatoryFile(of: suite) }
  private var shipped: URL { SystemConfigFolder(system.url).defaultsFile(of: suite) }

  private func administrator(_ values: [String: Any], mandatory: Bool = false) throws {
    try SystemConfigFolder(system.url).write(values, suite: suite, mandatory: mandatory)
  }

  /// The settings on the suite with the system folder, shown on a wide screen (paths fit).
  private func show() -> (EditorTypeSettings, MemoryCanvas, EditorSession, EditorScreen) {
    let store = PropertyListDefaults(
      fileURL: TestPreferences.file(ofSuite: suite), suite: suite, systemFolders: [system.url])
    let settings = EditorTypeSettings(userDefaults: store)
    let canvas = MemoryCanvas(rows: 24, columns: 240)
    let session = EditorSession(sources: [SettingsObjectRows(AnySettings(settings))])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    return (settings, canvas, session, screen)
  }

  @Test func aMandatoryRowIsMarkedSaysWhyAndRefusesEdits() throws {
    try administrator(["volume": 3], mandatory: true)
    try administrator(["greeting": "hello"])
    let (settings, canvas, session, screen) = show()
    #expect(canvas.line(4).contains("# volume"))
    #expect(canvas.line(4).hasSuffix("3"))
    #expect(canvas.line(6).contains("* greeting"))
    for key: KeyPress in [.down, .down] { screen.draw(session.handle(key)) }
    #expect(
      canvas.line(22)
        == " volume · default: 5 · locked: mandatory, set by \(lock.path)")
    for key: KeyPress in [.enter, .character("7"), .enter] { screen.draw(session.handle(key)) }
    #expect(settings.volume == 3)
    #expect(
      canvas.line(22).hasPrefix(
        " volume is read-only: locked: mandatory, set by \(lock.path)"))
    for key: KeyPress in [.escape, .down, .down] { screen.draw(session.handle(key)) }
    #expect(
      canvas.line(22)
        == " greeting · A greeting in any script. · default: hi · from the system default in "
        + shipped.path)
  }

  @Test func aChangedSystemFileRedrawsOnlyTheRowsWhoseValueChanged() async throws {
    try administrator(["greeting": "hello", "ratio": 0.5])
    let (settings, canvas, session, screen) = show()
    try administrator(["greeting": "hello again", "ratio": 0.5])
    try administrator(["volume": 9], mandatory: true)
    #expect(await poll { settings.greeting == "hello again" && settings.volume == 9 })
    screen.draw(Damage())
    let counts = (0..<14).map { screen.redrawCount(source: 0, row: $0) }
    #expect(counts == [0, 0, 1, 0, 1] + Array(repeating: 0, count: 9))
    #expect(canvas.line(4).contains("~ volume"), "changed elsewhere, for a moment")
    #expect(canvas.line(6).hasSuffix("hello again"))
    #expect(session.sources[0].row(at: 2).isLocked)
  }

  @Test func aRawSuiteShowsItsMandatoryKeyLockedAndRefusesItsWrite() throws {
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("light", forKey: "theme")
    try writer.write(2, forKey: "size")
    try writer.flush()
    try administrator(["theme": "dark"], mandatory: true)
    let rows = SuiteRows(suite: suite, folder: TestPreferences.folder, systemFolders: [system.url])
    #expect((0..<rows.rowCount).map { rows.row(at: $0).name } == ["size", "theme"])
    #expect(!rows.row(at: 0).isLocked)
    #expect(rows.row(at: 1).isLocked)
    #expect(rows.row(at: 1).editing == .readOnly("locked: mandatory, set by \(lock.path)"))
    #expect(throws: PropertyListError.self) { try rows.setValue("sepia", at: 1) }
    #expect(writer.persistentValue(forKey: "theme") as? String == "light")
  }
}
