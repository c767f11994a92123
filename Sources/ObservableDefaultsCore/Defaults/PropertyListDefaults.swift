public import Foundation

/// A `UserDefaults` whose persistent domain is a property-list file that several processes share
/// safely.
///
/// Use it wherever a `UserDefaults` is expected. Unlike Foundation's on Linux, it
/// - writes every accepted value to the file without `synchronize()` (a flush runs at once after a
///   quiet millisecond, and at most once per millisecond during a burst, taking in every write
///   made before it; an `atexit` hook flushes the rest at normal exit),
/// - merges: a write locks the file, re-reads it and changes only the keys written, so keys
///   written by other processes are never dropped,
/// - never overwrites a file that does not parse (writes fail, see ``lastError``),
/// - reports changes (``observe(_:)`` per key, at once; and `UserDefaults.didChangeNotification`
///   with the instance as object, once per burst and at most once per millisecond, on a
///   background queue), including changes made
///   by other processes or by hand, seen through inotify.
///
/// All instances of one file (symbolic links resolved) in a process share one in-memory domain,
/// so a write through one is seen at once through the others.
///
/// Values are kept in canonical form (see ``PropertyListDocument``): every integer reads back as
/// `Int`, every real as `Double`, in this process as after a round trip through the file.
///
/// A suite opened by name (``init(suiteName:)``, ``standard``) also reads what an administrator
/// set for every user in the folders of `$XDG_CONFIG_DIRS` (``PreferencesDirectory/systemFolders``,
/// `/etc/xdg` by default): system-wide defaults in `<folder>/<suite>.plist` and mandatory values
/// in `<folder>/ObservableDefaults/mandatory/<suite>.plist`. A value is looked up in the layers
/// of ``DefaultsLayer``: the command line → mandatory → the user's file → system-wide defaults →
/// registered defaults. A mandatory key cannot be written (``objectIsForced(forKey:)`` is true
/// for it); a change of those files is reported like any outside change, for the keys whose
/// value changed. Those files are only read; one that does not parse, or lies in a folder
/// writable by others, is reported to ``Diagnostics`` and not used.
///
/// Keys are compared by their exact Unicode scalars (``PropertyListKey``), as the file and
/// Foundation on Apple platforms compare them: `"\u{E9}"` and `"e\u{301}"` are two keys, each read,
/// written and observed on its own. Only the `[String: Any]` views (``dictionaryRepresentation()``,
/// ``persistentValues``) hold one of them.
///
/// ```swift
/// let defaults = PropertyListDefaults(suiteName: "com.example.app")!
/// defaults.set("Fatbobman", forKey: "name")      // in the file shortly, and at exit for sure
/// let observation = defaults.observe { change in print(change.keys, change.origin) }
/// ```
open class PropertyListDefaults: UserDefaults {
  /// The file given at creation (standardized; symbolic links are followed when writing).
  public let fileURL: URL
  /// The shared state of the file.
  let storage: SuiteStorage
  /// The system-wide defaults and mandatory values of the suite, nil for a file opened by URL.
  let systemLayers: SystemLayers?
  /// Posts `UserDefaults.didChangeNotification` for this instance (once per burst of changes, at
  /// most once per millisecond, on a background queue).
  private var notificationObservation: ObservationToken?

  /// Opens the file of a suite: `PreferencesDirectory.fileURL(forSuite:)`.
  ///
  /// - Parameter suiteName: The suite; nil or empty opens the standard domain (the file
  ///   `UserDefaults.standard` uses here, see ``PreferencesDirectory/standardSuiteName``).
  /// - Returns: nil when `suiteName` contains `/`.
  public convenience override init?(suiteName: String?) {
    let name = suiteName ?? ""
    guard !name.contains("/") else { return nil }
    let suite = name.isEmpty ? PreferencesDirectory.standardSuiteName : name
    self.init(
      fileURL: PreferencesDirectory.fileURL(forSuite: suite), suite: suite,
      systemFolders: PreferencesDirectory.systemFolders)
  }

  /// Opens any property-list file as a suite (XML or binary; it need not exist yet), without
  /// system-wide defaults or mandatory values (``init(suiteName:)`` reads those).
  ///
  /// The file is read now; a file that does not parse leaves the domain empty, sets
  /// ``lastError`` and refuses writes until it parses again.
  ///
  /// - Parameter fileURL: A `file:` URL.
  public convenience init(fileURL: URL) {
    self.init(fileURL: fileURL, suite: nil, systemFolders: [])
  }

  /// Opens the property-list file `fileURL` as the suite `suite`, which also reads the
  /// system-wide defaults and mandatory values of `suite` in `systemFolders` (none when `suite`
  /// is nil).
  ///
  /// - Parameters:
  ///   - fileURL: The user's file of the suite.
  ///   - suite: The suite name the system files are named after.
  ///   - systemFolders: The system folders, most important first.
  package init(fileURL: URL, suite: String?, systemFolders: [URL]) {
    self.fileURL = fileURL.standardizedFileURL
    storage = SuiteStorageRegistry.shared.storage(for: fileURL)
    systemLayers = suite.map { SystemLayers.of(suite: $0, folders: systemFolders) }
    // Foundation's `init?(suiteName:)` never fails; the name only labels the superclass.
    super.init(suiteName: fileURL.deletingPathExtension().lastPathComponent)!
    let poster = ChangeNotificationPoster(self)
    // The poster reads no change report: a write told only to it makes none.
    notificationObservation = observeLayers { _ in poster.changed() }
  }

  /// The shared instance for the standard domain (created on first use, in the folder
  /// ``PreferencesDirectory/url`` names at that moment).
  override open class var standard: PropertyListDefaults { sharedStandard }

  nonisolated(unsafe) private static let sharedStandard = PropertyListDefaults(suiteName: nil)!

  /// The command line's `-key value` pairs (parsed by Foundation), which override the file, as
  /// in Foundation.
  nonisolated(unsafe) static let commandLineDomain: [String: Any] = {
    let domain = UserDefaults(suiteName: nil)?.volatileDomain(forName: UserDefaults.argumentDomain)
    return (domain ?? [:]).mapValues { PropertyListValue.normalized($0) ?? $0 }
  }()

  // MARK: Reading

  /// The value for `key`: the command line's, else the mandatory value, else the file's, else
  /// the system-wide default, else the registered default (``DefaultsLayer``).
  ///
  /// A nested dictionary two of whose keys differ only in Unicode normalization (the file holds
  /// both) is a `[String: Any]` here, which holds one of them, the first in Unicode scalar order
  /// (Apple's Foundation hands an `NSDictionary` holding both, which merges them too when
  /// bridged to `[String: Any]`); ``persistentValue(forKey:)`` gives both, and the file keeps
  /// both unless this value is written back.
  open override func object(forKey key: String) -> Any? {
    if let value = Self.commandLineDomain[key] { return value }
    guard let systemLayers else {
      return storage.value(forKey: key).map(PropertyListValue.stringKeyed)
        ?? RegistrationDomain.shared.value(forKey: key)
    }
    return (layeredEntry(forKey: PropertyListKey(key), in: systemLayers.values)?.value).map(
      PropertyListValue.stringKeyed)
  }

  /// Whether an administrator set the value of `key`: a mandatory file of the suite holds it.
  /// Writes to it are refused (``PropertyListError/Kind/mandatory(key:)``), as Apple documents
  /// for managed keys ("Apps can't change the value of managed keys"; disable the controls
  /// that change it).
  ///
  /// - Parameter key: The key.
  /// - Returns: `true` when the key is mandatory; `false` for a file opened by URL.
  open override func objectIsForced(forKey key: String) -> Bool {
    systemLayers?.values.mandatory[PropertyListKey(key)] != nil
  }

  /// Whether an administrator set the value of `key` in the suite `domain` (read from the same
  /// system folders as this suite, ``PreferencesDirectory/systemFolders`` for a file opened by
  /// URL).
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - domain: A suite name; one with `/` names no suite (`false`).
  /// - Returns: `true` when a mandatory file of `domain` holds `key`.
  open override func objectIsForced(forKey key: String, inDomain domain: String) -> Bool {
    guard PreferencesDirectory.isSuiteName(domain) else { return false }
    let folders = systemLayers?.folders ?? PreferencesDirectory.systemFolders
    return SystemLayers.of(suite: domain, folders: folders).values
      .mandatory[PropertyListKey(key)] != nil
  }

  /// Where the value ``object(forKey:)`` gives for `key` comes from, nil when no layer has one
  /// (a settings object's property then reads its declaration's default).
  ///
  /// - Parameter key: The key.
  public func layer(forKey key: String) -> DefaultsLayer? {
    if Self.commandLineDomain[key] != nil { return .commandLine }
    return layeredEntry(forKey: PropertyListKey(key), in: systemLayers?.values ?? SystemDefaults())?
      .layer
  }

  /// The value stored in the file (as last read or written in this process), ignoring
  /// registered defaults and the command line.
  ///
  /// - Parameter key: The key.
  /// - Returns: The canonical value, or nil. A nested dictionary two of whose keys differ only
  ///   in Unicode normalization is a `[PropertyListKey: Any]` holding both.
  public func persistentValue(forKey key: String) -> Any? {
    storage.value(forKey: key)
  }

  /// Every value stored in the file (no registered defaults, no command-line values): the
  /// suite's persistent domain, in canonical form, keyed by `String`: of keys that differ only in
  /// Unicode normalization (which the file holds apart) one is kept, the first in Unicode scalar
  /// order, at the top and in nested dictionaries (see ``object(forKey:)``);
  /// ``exactPersistentValues`` has each.
  public var persistentValues: [String: Any] {
    PropertyListValue.stringKeyed(values: storage.allValues())
  }

  /// Every value stored in the file, as ``persistentValues``, keyed by exact key: keys that
  /// differ only in Unicode normalization are separate entries, as in the file.
  public var exactPersistentValues: [PropertyListKey: Any] {
    storage.allValues()
  }

  /// The default registered for `key` by `register(defaults:)` in this process, or nil.
  ///
  /// - Parameter key: The key.
  public func registeredDefault(forKey key: String) -> Any? {
    RegistrationDomain.shared.value(forKey: key)
  }

  /// The value as an `Int`: integers as they are, reals truncated, `true` as 1, numeric strings
  /// parsed; 0 otherwise (Foundation here gives 0 for a real).
  open override func integer(forKey key: String) -> Int {
    TypedValueConversion.integer(from: object(forKey: key))
  }

  /// The value as a `Double`: reals and integers converted, `true` as 1, numeric strings
  /// parsed; 0 otherwise (Foundation here gives 0 for an integer).
  open override func double(forKey key: String) -> Double {
    TypedValueConversion.double(from: object(forKey: key))
  }

  /// The value as a `Float`: ``double(forKey:)`` narrowed (Foundation here gives 0 for a real
  /// read back from a file, which is a `Double`).
  open override func float(forKey key: String) -> Float {
    Float(double(forKey: key))
  }

  /// The URL stored by `set(_:forKey:)` (its absolute string), a file URL for a stored path
  /// (`~` expanded; what Foundation here writes), or Foundation's reading of other values.
  open override func url(forKey key: String) -> URL? {
    guard let string = object(forKey: key) as? String else { return super.url(forKey: key) }
    return TypedValueConversion.url(from: string)
  }

  /// Registered defaults, overridden by system-wide defaults, by the file's values, by
  /// mandatory values and by the command line's.
  ///
  /// A `[String: Any]` cannot hold two keys that differ only in Unicode normalization: of those
  /// in the file, the first in Unicode scalar order is kept here (``persistentValues``), and
  /// nothing is lost on disk (``exactPersistentValues`` and ``persistentValue(forKey:)`` read
  /// each). Foundation's `NSDictionary` keeps both, but bridged to `[String: Any]` on Apple
  /// platforms it merges them too.
  open override func dictionaryRepresentation() -> [String: Any] {
    // The file's values first: a large domain is then built once, instead of being inserted
    // entry by entry into a growing dictionary (a second copy and its doublings: 345 MB at the
    // peak for a 1,000,000-key suite).
    var values = PropertyListValue.stringKeyed(
      values: (systemLayers?.values ?? SystemDefaults()).merged(over: storage.allValues()))
    for (key, value) in RegistrationDomain.shared.all() where values[key] == nil {
      values[key] = value
    }
    for (key, value) in Self.commandLineDomain { values[key] = value }
    return values
  }

  /// Registers defaults for every instance in the process (not written to any file).
  ///
  /// - Parameter registrationDictionary: Key → default value.
  open override func register(defaults registrationDictionary: [String: Any]) {
    RegistrationDomain.shared.register(registrationDictionary)
    super.register(defaults: registrationDictionary)
  }

  // MARK: Writing

  /// The last failure of a write, a flush or a re-read of this file through any instance in this
  /// process; nil again after the next successful write to the file, or re-read of it once its
  /// bytes changed.
  ///
  /// `set(_:forKey:)` and `removeObject(forKey:)` cannot throw: they record their failure here and
  /// report it to ``Diagnostics`` (one line on standard error by default).
  public var lastError: PropertyListError? {
    storage.lastError
  }

  /// Whether the file's values were read at least once in this process: false while a file
  /// that did not parse when it was first opened has not parsed since (``lastError`` says why),
  /// so no value of the file is known; true for a file that does not exist.
  package var hasReadValues: Bool {
    storage.hasReadValues
  }

  /// Stores (or with nil removes) a value, checked.
  ///
  /// Memory changes at once; observers of this file in this process are told synchronously on
  /// this thread (only when the value changed); the file is written shortly on an internal queue.
  /// A `URL` is stored as its `absoluteString` (read it back with `url(forKey:)`).
  ///
  /// - Parameters:
  ///   - value: A property-list value, a `URL`, or nil to remove the key.
  ///   - key: The key.
  ///   - excluding: An observation not to tell about this write (the writer tells itself).
  /// - Throws: ``PropertyListError`` of kind `.invalidValue` when `value` is not a property-list
  ///   value (naming the key and the type), `.malformed` while the file does not parse (naming the
  ///   file and the parse failure), `.mandatory(key:)` when `key` is mandatory (naming the file
  ///   that sets it; also recorded as ``lastError``). Nothing is applied on failure.
  public func write(_ value: Any?, forKey key: String, excluding: ObservationToken? = nil) throws {
    try refuseMandatory(CollectionOfOne(key))
    try storage.write(change(value, forKey: key), forKey: key, excluding: excluding?.id)
  }

  /// Stores a value of a type known to the caller, as ``write(_:forKey:excluding:)`` stores
  /// `value.storedValue` (with the same checks, observers and failures): already canonical, it is
  /// not normalized, and it is compared with the value it replaces by its type, not as `Any`.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  ///   - excluding: An observation not to tell about this write (the writer tells itself).
  /// - Throws: As ``write(_:forKey:excluding:)``.
  public func write(
    scalar value: PropertyListScalar, forKey key: String, excluding: ObservationToken? = nil
  ) throws {
    try refuseMandatory(CollectionOfOne(key))
    try storage.write(value, forKey: key, excluding: excluding?.id)
  }

  /// Stores (or with nil removes) several values together, checked: the file gets all of them in
  /// one locked merge, so another process never sees some without the others (a renamed key is
  /// written and its old key removed at once). Observers are told once, about the keys whose
  /// value changed.
  ///
  /// - Parameters:
  ///   - values: Key → a property-list value, a `URL`, or nil to remove the key.
  ///   - excluding: An observation not to tell about this write.
  /// - Throws: The errors of ``write(_:forKey:excluding:)``. Nothing is applied on failure.
  public func write(_ values: [String: Any?], excluding: ObservationToken? = nil) throws {
    try write([PropertyListKey: Any?](exactKeys: values), excluding: excluding)
  }

  /// Stores (or with nil removes) several values together by exact key, as the form with
  /// `String` keys does: keys that differ only in Unicode normalization (`é` as U+00E9 and as
  /// `e` U+0301), which a `[String: Any?]` cannot hold apart, are the distinct keys they are in
  /// the file — a key renamed from one form to the other is one write.
  ///
  /// - Parameters:
  ///   - values: Key → a property-list value, a `URL`, or nil to remove the key.
  ///   - excluding: An observation not to tell about this write.
  /// - Throws: The errors of ``write(_:forKey:excluding:)``. Nothing is applied on failure.
  public func write(_ values: [PropertyListKey: Any?], excluding: ObservationToken? = nil) throws {
    let changes = try values.reduce(into: [PropertyListKey: PropertyListChange]()) {
      changes, entry in
      changes[entry.key] = try change(entry.value, forKey: entry.key.string)
    }
    try refuseMandatory(values.keys.lazy.map(\.string))
    try storage.write(changes, excluding: excluding?.id)
  }

  /// The change that stores `value` (canonical) under `key`, or removes it for nil.
  private func change(_ value: Any?, forKey key: String) throws -> PropertyListChange {
    guard let value else { return .remove }
    guard let canonical = PropertyListValue.normalized(value) ?? (value as? URL)?.absoluteString
    else {
      throw PropertyListError(
        file: fileURL, kind: .invalidValue(key: key),
        reason: "a value of type \(type(of: value)) is not a property-list value")
    }
    return .set(canonical)
  }

  /// ``write(_:forKey:excluding:)`` that records a failure in ``lastError`` and reports it to
  /// ``Diagnostics``.
  private func writeReportingFailure(_ value: Any?, forKey key: String) {
    do {
      try write(value, forKey: key)
    } catch {
      report(error)
    }
  }

  /// Records a write's failure as ``lastError`` and reports it to ``Diagnostics``.
  private func report(_ error: any Error) {
    let failure = PropertyListError(wrapping: error, file: fileURL, kind: .unwritable)
    storage.record(failure)
    Diagnostics.report("PropertyListDefaults", "\(failure)")
  }

  /// Stores a value through ``write(_:forKey:excluding:)``; nil removes the key. On failure the
  /// old value stays and the error goes to ``lastError``.
  open override func set(_ value: Any?, forKey key: String) {
    writeReportingFailure(value, forKey: key)
  }

  /// Stores a URL as its `absoluteString` (Foundation here stores only the path); nil removes the
  /// key (Foundation here never returns from a bare `set(nil, forKey:)`).
  open override func set(_ url: URL?, forKey key: String) {
    writeReportingFailure(url?.absoluteString, forKey: key)
  }

  /// Stores an `Int`.
  open override func set(_ value: Int, forKey key: String) {
    writeReportingFailure(value, forKey: key)
  }

  /// Stores a `Float` (kept as the `Double` it widens to, as a file round trip does).
  open override func set(_ value: Float, forKey key: String) {
    writeReportingFailure(value, forKey: key)
  }

  /// Stores a `Double`.
  open override func set(_ value: Double, forKey key: String) {
    writeReportingFailure(value, forKey: key)
  }

  /// Stores a `Bool`.
  open override func set(_ value: Bool, forKey key: String) {
    writeReportingFailure(value, forKey: key)
  }

  /// Removes the key from the file through ``write(_:forKey:excluding:)``.
  open override func removeObject(forKey key: String) {
    writeReportingFailure(nil, forKey: key)
  }

  /// Writes everything pending to the file now and waits for it.
  ///
  /// A change the file cannot take is refused by its key and never stays pending: a value past
  /// a limit of the file's readers (nesting deeper than 512 levels; a file above 256 MiB, or
  /// expanding to more values or string and data bytes than a reader reads, each counted once
  /// per reference) or one an XML file cannot hold. The other changes are written, the refused
  /// key takes its value on disk again (observers are told, as of a change from another
  /// process) and the refusal is thrown, and kept as ``lastError``. Changes that pass a limit
  /// only together (each set was accepted) are written in the order they were made, and the
  /// one that passes the limit on top of those before it is the one refused: so no accepted set
  /// leaves the suite unable to flush, and nothing but the refused change is lost.
  ///
  /// - Throws: The write's ``PropertyListError``: `.invalidValue(key:)` naming a refused key
  ///   (the first, when several were), or another failure (disk full, a file that does not
  ///   parse; the values then stay pending and are retried).
  public func flush() throws {
    try storage.flush()
  }

  /// Writes everything pending, then re-reads the file and reports what changed there.
  ///
  /// - Returns: false when the write or the re-read failed (see ``lastError``).
  @discardableResult
  open override func synchronize() -> Bool {
    storage.synchronize()
  }

  /// Writes what the suites whose files lie inside `folder` hold back, and waits for it (every
  /// store of one file in this process shares its pending writes): for a folder about to be
  /// removed, so that no late write of this process makes it again.
  ///
  /// - Parameter folder: The folder (symbolic links resolved).
  package static func flushSuites(inside folder: URL) {
    SuiteStorageRegistry.shared.flush(inside: folder)
  }

  // MARK: Persistent domains (Foundation's versions rewrite the whole file without locking)

  /// The values stored in the suite `domainName`'s file (no registered defaults).
  ///
  /// - Parameter domainName: A suite name.
  /// - Returns: The values (empty when the file does not exist), or nil for a name with `/`.
  open override func persistentDomain(forName domainName: String) -> [String: Any]? {
    PropertyListDefaults(suiteName: domainName)?.persistentValues
  }

  /// Replaces the values of the suite `domainName` with `domain` in one locked merging write,
  /// and waits for the file: another process reads the old domain or the new one, never a mix,
  /// and observers are told once. A value that is not a property-list value, or a key an
  /// administrator made mandatory, keeps its stored value; each such failure goes to that
  /// suite's ``lastError`` and ``Diagnostics``, as `set(_:forKey:)` reports it, and the other
  /// keys are written.
  ///
  /// - Parameters:
  ///   - domain: The new values (property-list values).
  ///   - domainName: A suite name.
  open override func setPersistentDomain(_ domain: [String: Any], forName domainName: String) {
    guard let suite = PropertyListDefaults(suiteName: domainName) else { return }
    suite.replaceValues(with: [PropertyListKey: Any](exactKeys: domain))
    suite.synchronize()
  }

  /// ``setPersistentDomain(_:forName:)``'s write on this suite. One write, not one per key:
  /// removing every key of a 100,000-key suite key by key could be flushed part way (another
  /// process then read a part of the domain), and told observers 100,000 times.
  final func replaceValues(with values: [PropertyListKey: Any]) {
    var changes: [PropertyListKey: PropertyListChange] = [:]
    for key in storage.allValues().keys where values[key] == nil { changes[key] = .remove }
    for (key, value) in values {
      do { changes[key] = try change(value, forKey: key.string) } catch { report(error) }
    }
    if systemLayers != nil {
      for key in changes.keys {
        do { try refuseMandatory(CollectionOfOne(key.string)) } catch {
          changes[key] = nil
          report(error)
        }
      }
    }
    guard !changes.isEmpty else { return }
    do { try storage.write(changes, excluding: nil) } catch { report(error) }
  }

  /// Removes every value of the suite `domainName` (the file stays, as an empty dictionary) and
  /// waits for the file.
  ///
  /// - Parameter domainName: A suite name.
  open override func removePersistentDomain(forName domainName: String) {
    setPersistentDomain([:], forName: domainName)
  }

  // MARK: Observing

  /// Calls `handler` with the keys whose value changed.
  ///
  /// - Changes of the suite's system-wide defaults or mandatory files: on an internal queue,
  ///   origin `.otherProcess` and writer `.administrator`, only the keys whose value (``object(forKey:)``) changed. A change
  ///   of the user's file to a mandatory key is not told (its value did not change).
  /// - Writes made in this process through any instance of this file: synchronously on the
  ///   writing thread, origin `.thisProcess`, only when the value changed.
  /// - Changes made by other processes or by hand: on an internal serial queue, origin
  ///   `.otherProcess`, only the keys whose value changed (a deleted file: all its keys). This
  ///   process's own writes never come back as `.otherProcess`.
  ///
  /// - Parameter handler: Called for each change; must not block for long.
  /// - Returns: The observation; it ends on `cancel()` or when released.
  public func observe(_ handler: @escaping @Sendable (DefaultsChange) -> Void)
    -> ObservationToken
  {
    observeLayers { change in handler(change()) }
  }

  /// Calls `handler` when ``lastError`` changes after a re-read of the file without a value
  /// changing: the file stopped reading (a new error), or reads again after one. A program
  /// that shows whether the file reads waits for this instead of checking on a timer.
  ///
  /// - Parameter handler: Called on the suite's queue; must not block for long.
  /// - Returns: The observation; it ends on `cancel()` or when released.
  package func observeReadability(_ handler: @escaping @Sendable () -> Void)
    -> ObservationToken
  {
    storage.addReadabilityObserver(handler)
  }
}
