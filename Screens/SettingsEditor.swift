public import Foundation
public import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsSchema

/// A full-screen terminal editor for settings: your program's settings objects, raw suites in
/// the preferences folder, and property-list files.
///
/// Each property is one row — name, storage key, type and value, with `*` when the value differs
/// from its default — and the line below the rows describes the focused one (documentation,
/// default, allowed values). Every type the macros store has an editor: Space toggles a `Bool`,
/// ←/→ cycle an enumeration, Enter edits numbers (checked against the integer's range), strings,
/// dates (ISO 8601), URLs, and arrays, dictionaries and `Codable` values as JSON, validated before
/// anything is written. `d` resets a value to its default, `D` the whole object, `u` undoes, `/`
/// searches names and descriptions, `m` lists modified values only, `?` lists every key, `q`
/// quits. When another process writes a key, only that key's row is redrawn, and it is marked
/// for a moment.
///
/// A program offers its settings in a few lines, for example as `myapp settings`:
///
/// ```swift
/// if CommandLine.arguments.dropFirst().first == "settings" {
///   try SettingsEditor(objects: [AnySettings(settings), AnySettings(cloudSettings)]).run()
/// }
/// ```
///
/// The editor owns the terminal while ``run()`` runs and restores it on every exit path,
/// including errors and SIGTERM, SIGHUP, SIGINT and SIGQUIT. Create and run it on the main thread
/// (top-level code or `@MainActor`); it draws from there and applies changes made on other threads
/// there.
@MainActor
public final class SettingsEditor {
  private let sources: [any RowSource]
  /// When set, the editor shows values but changes none.
  public var isReadOnly = false
  /// When the editor paints in colour; `.auto` honours `NO_COLOR`.
  public var color = ColorChoice.auto
  /// When set, suites that appear in the preferences folder while the editor runs are listed
  /// as they appear (use it with ``availableSuites``).
  public var listsNewSuites = false
  /// The name at the start of the header line: by default the running program's name
  /// (`ProcessInfo.processName`), so an editor shown by `myapp settings` says `myapp`.
  public var programName = ProcessInfo.processInfo.processName

  /// Prepares an editor for settings objects, suites and property-list files, listed in that
  /// order in the objects pane.
  ///
  /// - Parameters:
  ///   - objects: Settings objects of your program (classes made with `@ObservableDefaults` or
  ///     `@ObservableCloud`), wrapped with `AnySettings(_:)`.
  ///   - suites: Suite names in the preferences folder (`$XDG_CONFIG_HOME`, else `~/.config`),
  ///     edited key by key; pass ``availableSuites`` for all of them. A suite one of `objects`
  ///     keeps its values in is listed once, as that object.
  ///   - files: Property-list files (XML or binary), shown as trees and editable; a save keeps
  ///     the file's format.
  ///   - includesPublishedSchemas: Whether to list, after the objects, the settings classes
  ///     other programs published (`SettingsSchemaDirectory.searchPath`), grouped by program:
  ///     typed rows with defaults and descriptions on their suite or cloud container. A suite a
  ///     schema describes is then listed through its schema only. Schemas this program published,
  ///     and schemas of a suite or container one of `objects` keeps its values in, are left out
  ///     (the objects are the ones given: a suite is listed once); folders and files that hold
  ///     no usable schema, and conflicting schemas, are named on the status line.
  /// - Throws: `PropertyListError` when a file is missing or is not a property list.
  public convenience init(
    objects: [AnySettings] = [], suites: [String] = [], files: [URL] = [],
    includesPublishedSchemas: Bool = false
  ) throws {
    let fileSources: [any RowSource] = try files.map { try PropertyListFileRows(file: $0) }
    let objectSources: [any RowSource] = objects.map(SettingsObjectRows.init)
    var schemaSources: [PublishedSchemaRows] = []
    var problems: [String] = []
    if includesPublishedSchemas {
      let published = PublishedSchemas()
      let program = ProcessInfo.processInfo.processName
      let ownStores = SettingsSchemaPublisher.schemas(of: objects).map(\.store)
      let preferences = PreferencesDirectory.url
      schemaSources = PublishedSchemaRows.rows(
        of: published.shownSchemas.filter {
          $0.program.name != program && !ownStores.contains($0.store)
        },
        preferences: preferences)
      problems = published.problems
    }
    let described = Set((objectSources + schemaSources).compactMap(\.suiteName))
    let suiteSources = suites.filter { !described.contains($0) }.map { SuiteRows(suite: $0) }
    self.init(sources: objectSources + schemaSources + suiteSources + fileSources)
    otherKeys = OtherKeys.groups(of: schemaSources)
    schemaProblems = problems
  }

  init(sources: [any RowSource]) {
    self.sources = sources
  }

  /// The "other keys" of the suites the published schemas describe: listed while they hold a
  /// key, once their suite is read (``OtherKeys/follow(_:session:post:)``).
  private var otherKeys: [OtherKeys] = []

  /// The schema folders and files that could not be used, reported once the editor runs.
  private var schemaProblems: [String] = []

  /// The names of the suites in the preferences folder, sorted.
  public static var availableSuites: [String] {
    PreferencesDirectory.suiteNames()
  }

  /// Shows the editor until the user quits.
  ///
  /// A termination signal (SIGTERM, SIGHUP, SIGINT, SIGQUIT) ends the editor, restores the
  /// terminal, says so on standard error (`myapp: ended by SIGINT (Interrupt)`), then terminates
  /// the process with that signal as it would have without the editor.
  ///
  /// The editor stays open while its suites are re-read, so it gives the memory of each
  /// re-read back when it is freed: it fixes the C library's threshold for mapping large blocks
  /// on their own for the whole process (glibc's `mallopt`, see
  /// `SystemMemory.mapLargeBlocks()`).
  ///
  /// - Throws: ``SettingsEditorError`` when there is no terminal to draw on; the terminal is
  ///   left untouched then.
  public func run() throws {
    SystemMemory.mapLargeBlocks()
    let loop = try EventLoop()
    let signals = Self.terminationSignals.map(\.number)
    var caughtSignal: Int32?
    do {
      let canvas = try NcursesCanvas(
        color: color.usesColor(environment: ProcessEnvironment.values(of: ["NO_COLOR"])))
      defer { canvas.end() }
      loop.catchSignals(signals)
      defer { loop.releaseSignals(signals) }
      // Changes of main-actor settings objects made on other threads arrive as loop jobs.
      let delivery = MainActorDelivery.schedule
      MainActorDelivery.schedule = { work in loop.post { work() } }
      defer { MainActorDelivery.schedule = delivery }
      caughtSignal = runLoop(loop, canvas: canvas)
    }
    if let caughtSignal {
      // `try?`: after a hang-up standard error may be the terminal that is gone.
      try? FileHandle.standardError.write(
        contentsOf: Data("\(programName): ended by \(Self.describe(caughtSignal))\n".utf8))
      raise(caughtSignal)
    }
  }

  /// The signals that end the editor (the terminal restored first), with their names.
  private static let terminationSignals: [(number: Int32, name: String)] = [
    (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"),
  ]

  /// `SIGINT (Interrupt)`: the signal's name and the system's description of it.
  private static func describe(_ signal: Int32) -> String {
    let name = terminationSignals.first { $0.number == signal }?.name ?? "signal \(signal)"
    return "\(name) (\(strsignal(signal).map { String(cString: $0) } ?? "unknown"))"
  }

  /// Lists suites created in the preferences folder while the editor runs, and lets `r` find
  /// them too.
  private func followSuites(_ session: EditorSession, loop: EventLoop) -> ObservationToken {
    session.discoverSources = {
      let listed = Set(session.sources.compactMap(\.suiteName))
      return PreferencesDirectory.suiteNames().filter { !listed.contains($0) }.map { name in
        let domain = SuiteRows(suite: name)
        session.recordChanges(of: domain, post: loop.post)
        domain.startWatching(post: loop.post)
        return domain
      }
    }
    return PreferencesDirectory.watchSuites {
      loop.post { session.state.outsideDamage.formUnion(session.listNewSources()) }
    }
  }

  /// How long a running search looks through rows before the loop reads keys again.
  private static let searchSlice: Duration = .milliseconds(8)

  private func runLoop(_ loop: EventLoop, canvas: NcursesCanvas) -> Int32? {
    let session = EditorSession(sources: sources, isReadOnly: isReadOnly)
    session.programName = programName
    let external = ExternalEditor(canvas: canvas, loop: loop)
    session.externalEditor = { text, fileExtension in
      external.edit(text, fileExtension: fileExtension)
    }
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .current, wake: loop.wake)
    // While the editor owns the terminal, the library's diagnostics go to the status line.
    let diagnostics = Diagnostics.handler
    Diagnostics.handler = { diagnostic in loop.post { session.show(diagnostic) } }
    defer { Diagnostics.handler = diagnostics }
    // The status line holds one message: the first problem, and how many there are.
    if let first = schemaProblems.first {
      let others = schemaProblems.count - 1
      Diagnostics.report(
        programName,
        first
          + (others == 0
            ? ""
            : " (and \(others) more schema problems: settings-editor list-schemas names each)")
      )
    }
    for source in sources { session.recordChanges(of: source, post: loop.post) }
    for case let source as any LiveRowSource in sources { source.startWatching(post: loop.post) }
    // A file that stops reading, or reads again, changes no value: its suite wakes the loop.
    let readability = sources.compactMap { $0.suiteFile?.observeReadability(loop.wake) }
    defer { for observation in readability { observation.cancel() } }
    OtherKeys.follow(otherKeys, session: session, post: loop.post)
    let suiteWatch = listsNewSuites ? followSuites(session, loop: loop) : nil
    defer { suiteWatch?.cancel() }
    var damage = Damage(layout: true)
    while !session.state.isFinished {
      screen.draw(damage)
      damage = Damage()
      // A running search takes the time between keys: the loop does not sleep meanwhile.
      let wakeup = loop.waitForEvents(until: session.isSearching ? .now : screen.nextDeadline)
      if let signal = wakeup.signal { return signal }
      for job in wakeup.jobs { job() }
      damage.formUnion(session.state.outsideDamage)
      session.state.outsideDamage = Damage()
      let keys = canvas.pendingKeys()
      for key in keys {
        damage.formUnion(session.handle(key))
      }
      if keys.isEmpty, session.isSearching {
        damage.formUnion(session.continueSearch(for: Self.searchSlice))
      }
    }
    return nil
  }
}
