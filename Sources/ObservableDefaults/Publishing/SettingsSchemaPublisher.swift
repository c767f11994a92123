import Dispatch
import Foundation
package import ObservableDefaultsSchema

/// Publishes the settings schema of each settings class a program uses, so tools such as the
/// settings editor show and check its settings while it does not run.
///
/// The runtime publishes by itself: when an object of an `@ObservableDefaults` or
/// `@ObservableCloud` class first loads its values, the class's schema for that object's store
/// is written to the user's schema folder (`$XDG_DATA_HOME/ObservableDefaults/schemas`, else
/// `~/.local/share/ObservableDefaults/schemas`) on a background queue 0.1 s later
/// — once per class and store in a process, only when the file does not already hold it, never
/// on a property's read or write. A program that exits sooner still publishes: when it exits
/// (`exit`, or returning from `main`), it writes the schemas no background write has taken yet
/// on the exiting thread and waits only for a write already under way, at most ``exitTimeout``
/// seconds: a program with nothing left to write does not sleep at its exit, and one that exits
/// right away starts no thread to publish and waits for none. Only stores other programs
/// can open by name are published: a suite in the preferences folder and the default cloud
/// store's container.
///
/// A program opts out with ``isEnabled`` (before its first settings object) or, without code,
/// with the environment variable ``environmentVariable`` set to `0`, `off`, `false` or `no`. A
/// test bundle (a process named `*.xctest`, as `swift test` runs) publishes nothing: it is not a
/// program people run, and its settings are the tests'.
///
/// To install schemas with a package, so tools know the program before its first run, give the
/// program a command that writes them ("myapp --write-settings-schemas DIR"):
///
/// ```swift
/// let folder = URL(fileURLWithPath: directory)
/// try SettingsSchemaPublisher.write([AnySettings(Settings())], to: folder)
/// ```
///
/// and install the folder it wrote as `/usr/share/ObservableDefaults/schemas` (or under another
/// folder of `$XDG_DATA_DIRS`).
///
/// Tools read the schemas with the module `ObservableDefaultsSchema` (its `SettingsSchema` and
/// `SettingsSchemaDirectory`), which a program that only publishes does not import.
public enum SettingsSchemaPublisher {
  /// `OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS`: `0`, `off`, `false` or `no` turns publishing off.
  public static let environmentVariable = "OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS"

  private static let enabled = AnnotatedMutex<Bool?>(nil)
  /// The classes and stores published in this process.
  private static let published = AnnotatedMutex<Set<Published>>([])
  /// A class and the store its schema was published for. A value, not text: interpolating the
  /// class's identifier printed it through dynamic casts, a sixth of a minimal settings
  /// program's start (callgrind of `minimal-defaults`).
  private struct Published: Hashable {
    let type: ObjectIdentifier
    let store: SettingsSchema.Store
  }
  private static let queue = DispatchQueue(label: "ObservableDefaults.schemas", qos: .utility)
  /// The schemas no writer has taken yet, with the directory each goes to.
  private static let queued = AnnotatedMutex<[(SettingsSchema, SettingsSchemaDirectory)]>([])
  /// The writes under way (entered when a writer takes ``queued``): empty, it is not waited for.
  private static let writing = DispatchGroup()
  /// Installs, once (on first use), the exit hook that writes what is still queued and waits
  /// for writes under way.
  private static let exitHook: Void = {
    atexit {
      SettingsSchemaPublisher.waitUntilPublished(timeout: SettingsSchemaPublisher.exitTimeout)
    }
  }()

  /// How long after a settings object first loads its values its schema is written in the
  /// background, unless the program exits first and writes it then: a program that exits right
  /// away starts no thread for it.
  private static let backgroundDelay = 0.1

  /// The longest a program waits at its exit for its schemas to be written (1 s).
  public static let exitTimeout = 1.0

  /// Whether the runtime publishes schemas: true unless ``environmentVariable`` turns it off, the
  /// process is a test bundle, or the program set it to false.
  public static var isEnabled: Bool {
    get {
      enabled.withLock { value in
        if let value { return value }
        let word = ProcessEnvironment.value(environmentVariable)?.lowercased() ?? ""
        let result =
          !["0", "off", "false", "no"].contains(word)
          && !ProcessInfo.processInfo.processName.hasSuffix(".xctest")
        value = result
        return result
      }
    }
    set { enabled.withLock { $0 = newValue } }
  }

  /// The schemas of `objects` (those whose store other programs can open by name), as this
  /// program publishes them.
  package static func schemas(of objects: [AnySettings]) -> [SettingsSchema] {
    objects.compactMap { $0.schema(program: .current) }
  }

  /// Writes the schemas of `objects` into the schema folder `folder`
  /// (`<folder>/<program>/<Module.Class>@<suite>.plist`), replacing older ones, for
  /// installation: the program's executable is not recorded (it may be built elsewhere), so
  /// tools never list these schemas as left behind. Objects whose store other programs cannot
  /// open by name are skipped.
  ///
  /// - Returns: The files of the schemas, written or already up to date.
  /// - Throws: `PropertyListError` when a file cannot be written.
  @discardableResult
  public static func write(_ objects: [AnySettings], to folder: URL) throws -> [URL] {
    let directory = SettingsSchemaDirectory(url: folder)
    let program = SettingsSchema.Program(name: ProcessInfo.processInfo.processName)
    return try objects.compactMap { $0.schema(program: program) }.map { schema in
      try directory.write(schema)
      return directory.fileURL(for: schema)
    }
  }

  /// Waits until the schemas this process is publishing are written, at most `timeout` seconds:
  /// for a program that exits right after reading its settings. Schemas no writer has taken
  /// yet are written on the calling thread; only a write already under way is waited for.
  /// Returns whether they were.
  @discardableResult
  public static func waitUntilPublished(timeout: Double = 5) -> Bool {
    writeQueued()
    return writing.wait(timeout: .now() + timeout) == .success
  }

  /// Takes the queued schemas and writes them on the calling thread.
  private static func writeQueued() {
    let taken = queued.withLock { queued in
      defer { queued = [] }
      if !queued.isEmpty { writing.enter() }
      return queued
    }
    guard !taken.isEmpty else { return }
    defer { writing.leave() }
    for (schema, directory) in taken {
      do {
        try directory.write(schema)
      } catch {
        Diagnostics.report(
          "ObservableDefaults",
          "the settings schema of \(schema.qualifiedName) was not published: \(error)")
      }
    }
  }

  /// Publishes the schema of `Object` for `store`, once per process, in the background.
  static func publish<Object>(
    _ properties: [SettingsProperty<Object>], of object: Object,
    store: any ObservableKeyValueStore, prefix: String
  ) {
    guard isEnabled, let target = SettingsSchema.store(of: store) else { return }
    let identity = Published(type: ObjectIdentifier(Object.self), store: target)
    guard published.withLock({ $0.insert(identity).inserted }) else { return }
    guard
      let schema = SettingsSchema(
        properties: properties, of: object, store: store, prefix: prefix, program: .current)
    else { return }
    let directory = SettingsSchemaDirectory.user
    _ = exitHook
    queued.withLock { $0.append((schema, directory)) }
    queue.asyncAfter(deadline: .now() + backgroundDelay) { writeQueued() }
  }
}
