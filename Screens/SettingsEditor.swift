import Foundation
import ObservableDefaults

/// A full-screen terminal editor for settings: your program's settings objects, raw suites in
/// the preferences folder, and property-list files.
///
/// Each property is one row — name, storage key, type and value, with `*` when the value differs
/// from its default. Arrow keys move, Enter edits a `String`, integer or `Double`, Space toggles
/// a `Bool`, `c` shows how often each row was redrawn, `q` quits. When another process writes a
/// key, only that key's row is redrawn.
///
/// ```swift
/// try SettingsEditor(objects: [AnySettings(settings)]).run()
/// ```
///
/// The editor owns the terminal while ``run()`` runs and restores it on every exit path,
/// including errors and SIGTERM, SIGHUP and SIGINT.
@MainActor
public final class SettingsEditor {
  private let sources: [any RowSource]

  /// Prepares an editor for settings objects, suites and property-list files, listed in that
  /// order in the objects pane.
  ///
  /// - Parameters:
  ///   - objects: Settings objects of your program (classes made with `@ObservableDefaults` or
  ///     `@ObservableCloud`), wrapped with `AnySettings(_:)`.
  ///   - suites: Suite names in the preferences folder (`$XDG_CONFIG_HOME`, else `~/.config`),
  ///     edited key by key; pass ``availableSuites`` for all of them.
  ///   - files: Property-list files (XML or binary), shown read-only.
  /// - Throws: `PropertyListError` when a file is missing or is not a property list.
  public convenience init(objects: [AnySettings] = [], suites: [String] = [], files: [URL] = []) throws {
    let fileSources: [any RowSource] = try files.map { try PropertyListDomain(file: $0) }
    let objectSources: [any RowSource] = objects.map(SettingsObjectRows.init)
    self.init(sources: objectSources + suites.map { PropertyListDomain(suite: $0) } + fileSources)
  }

  init(sources: [any RowSource]) {
    self.sources = sources
  }

  /// The names of the suites in the preferences folder, sorted.
  public static var availableSuites: [String] {
    PreferencesDirectory.suiteNames()
  }

  /// Shows the editor until the user quits.
  ///
  /// A termination signal ends the editor, restores the terminal, then terminates the process
  /// with that signal as it would have without the editor.
  public func run() throws {
    let loop = EventLoop()
    let signals = [SIGTERM, SIGHUP, SIGINT]
    var caughtSignal: Int32?
    do {
      let canvas = NcursesCanvas()
      defer { canvas.end() }
      loop.catchSignals(signals)
      defer { loop.releaseSignals(signals) }
      caughtSignal = runLoop(loop, canvas: canvas)
    }
    if let caughtSignal { raise(caughtSignal) }
  }

  private func runLoop(_ loop: EventLoop, canvas: NcursesCanvas) -> Int32? {
    let session = EditorSession(sources: sources)
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .current, wake: loop.wake)
    for case let source as any LiveRowSource in sources { source.startWatching(post: loop.post) }
    var damage = Damage(layout: true)
    while !session.state.isFinished {
      screen.draw(damage)
      damage = Damage()
      let wakeup = loop.waitForEvents()
      if let signal = wakeup.signal { return signal }
      for job in wakeup.jobs { job() }
      for key in canvas.pendingKeys() {
        damage.formUnion(session.handle(key))
      }
    }
    return nil
  }
}
