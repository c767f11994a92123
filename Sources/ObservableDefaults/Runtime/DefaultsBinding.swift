import Foundation

/// The runtime state behind one `@ObservableDefaults` object: its store, key prefix, external-change
/// settings, the store observation, and the lock over its cached values.
///
/// The macro's expansion creates one per object and routes every persisted property through it:
/// getters read the property's cache under ``lock``; setters call
/// ``set(_:object:property:storage:defaultValue:key:codec:)``; changes made to the store by other
/// instances, other processes or by hand arrive through the store's change signal and update only
/// the properties whose stored value changed. Not meant to be used directly.
public final class _DefaultsBinding<Object: AnyObject & Observable & SendableMetatype>:
  @unchecked Sendable
{
  // Sendable: its mutable fields are touched only under `lock`, which the generated accessors
  // take; a `Mutex` field could not be reached from their inlinable code.
  /// The Observation registrar of the object.
  public let registrar = ObservationRegistrar()
  /// Guards the object's cached values and the fields below.
  public let lock = _DefaultsLock()
  /// The store the object reads and writes, created on first use. Setting another store makes
  /// the object reload its values from it on next use.
  public var store: any ObservableKeyValueStore {
    get { lock.withLock { resolveStore() } }
    set {
      lock.withLock {
        currentStore = newValue
        observation = nil
        notificationObservation = nil
        isStarted = false
      }
    }
  }
  /// Prepended to every storage key (`_prefix` in the expansion).
  @exclusivity(unchecked) public var prefix: String
  /// When `true`, changes made outside the object update it without notifying observers.
  public var ignoresExternalChanges: Bool
  /// Properties whose external changes update the value without notifying observers.
  public var ignoredKeyPaths: [PartialKeyPath<Object>] = []
  /// Whether every write is followed by the store's `synchronize()` (`syncImmediately`).
  @exclusivity(unchecked) public var synchronizesEveryWrite = false

  private let makeStore: () -> any ObservableKeyValueStore
  // Guarded by `lock`, which already excludes: the fields a write reads skip the runtime's
  // exclusivity bookkeeping.
  @exclusivity(unchecked) private var currentStore: (any ObservableKeyValueStore)? {
    didSet { writeTarget = nil }
  }
  /// The store and the observation the writes use (``currentStore`` and ``observation``), made
  /// by the first write after either changed; guarded by ``lock``.
  @exclusivity(unchecked) private var writeTarget: WriteTarget?
  private let properties: [SettingsProperty<Object>]
  /// The persisted properties by storage key (without prefix).
  private let persisted: [String: SettingsProperty<Object>]
  /// The storage keys of the properties declared with previous keys, by storage key (without
  /// prefix): the only writes that may move a value (most objects have none).
  private let movingKeys: [String: StorageKeys]
  private let deliversOnMainActor: Bool
  private let limitsToInstance: Bool
  @exclusivity(unchecked) private var observation: ObservationToken? {
    didSet { writeTarget = nil }
  }
  private var notificationObservation: StoreNotificationObservation?
  /// Whether the object was loaded from its store and follows its changes; guarded by ``lock``.
  /// Checked inline by every getter: no exclusivity bookkeeping (the lock already excludes).
  @usableFromInline @exclusivity(unchecked) var isStarted = false
  /// Whether the store reports no changes (a Foundation `UserDefaults`), so every read and
  /// write first reads the property's value from the store; guarded by ``lock``.
  @usableFromInline @exclusivity(unchecked) var readsThrough = false
  /// The thread applying an outside change, from its first `willSet` to its last `didSet`;
  /// guarded by ``lock``. A getter on any other thread waits for the change (see ``read``).
  @usableFromInline @exclusivity(unchecked) var applyingThread: pthread_t?
  /// Entered while an outside change is applied.
  @usableFromInline let applying = DispatchGroup()
  /// The properties whose outside change an ``apply(_:to:)`` has read and not yet assigned;
  /// guarded by ``lock``. Another apply leaves them to it (that one assigns what the store holds
  /// by then): one change delivered twice at once, by the store's report on one thread and a
  /// change notification on another (a cloud store's `didChangeExternallyNotification`), found
  /// the cache stale at both and told the observers twice.
  private var assigning: Set<AnyKeyPath> = []
  /// How many writes of persisted properties started, outside changes were read and starts
  /// (``startIfNeeded(_:)``) loaded the caches, the number of the last one; guarded by
  /// ``lock``. A write whose number is still the last when it sets the cache, and that started
  /// with no other write unfinished, had no other write, outside change or start between its
  /// store write and its cache update (see ``finishWrite(_:)``).
  @usableFromInline @exclusivity(unchecked) var lastChange: UInt64 = 0
  /// How many writes of persisted properties started and have not set the cache; guarded by
  /// ``lock``.
  @usableFromInline @exclusivity(unchecked) var unfinishedWrites = 0

  /// Creates the state of an object.
  /// - Parameters:
  ///   - store: Creates the store; called on first use, so a store the initializer replaces
  ///     is never created (the cloud store of development mode, for example).
  ///   - prefix: The key prefix; must not contain `.`.
  ///   - ignoresExternalChanges: Whether external changes skip observer notification.
  ///   - limitsToInstance: Whether a posted `UserDefaults.didChangeNotification` counts only when
  ///     its object is this object's store (`limitToInstance`); otherwise any object counts.
  ///   - properties: The object's property table (its `_$settingsProperties`).
  ///   - deliversOnMainActor: Whether external changes are applied on the main actor (for
  ///     `@MainActor` classes); otherwise they are applied on the thread that delivers them.
  public init(
    store: @escaping @autoclosure () -> any ObservableKeyValueStore, prefix: String,
    ignoresExternalChanges: Bool, limitsToInstance: Bool = true,
    properties: [SettingsProperty<Object>], deliversOnMainActor: Bool = false
  ) {
    makeStore = store
    self.prefix = prefix
    self.ignoresExternalChanges = ignoresExternalChanges
    self.limitsToInstance = limitsToInstance
    self.properties = properties
    persisted = Dictionary(
      properties.compactMap { property in property.key.map { ($0, property) } },
      uniquingKeysWith: { first, _ in first })
    movingKeys = persisted.compactMapValues { property in
      property.previousKeys.isEmpty ? nil : property.storageKeys
    }
    self.deliversOnMainActor = deliversOnMainActor
  }

  /// The UserDefaults store of a `@ObservableDefaults` object (`_userDefaults` in the expansion).
  ///
  /// Foundation's `UserDefaults.standard` is replaced by ``PropertyListDefaults/standard`` (the same
  /// file, shared safely); any other plain `UserDefaults` is read and written as it is, without
  /// change signals.
  public var userDefaults: UserDefaults {
    get {
      (store as? UserDefaults) ?? (store as? FoundationDefaultsStore)?.defaults
        ?? PropertyListDefaults.standard
    }
    set { store = Self.observableStore(for: newValue) }
  }

  /// The store to use for a `UserDefaults`; see ``userDefaults``.
  private static func observableStore(for defaults: UserDefaults) -> any ObservableKeyValueStore {
    if let store = defaults as? PropertyListDefaults { return store }
    if defaults === UserDefaults.standard { return PropertyListDefaults.standard }
    return FoundationDefaultsStore(defaults: defaults)
  }

  /// The store for a `suiteName` macro argument: the standard domain when it is empty.
  public static func store(suiteName: String) -> PropertyListDefaults {
    if suiteName.isEmpty { return PropertyListDefaults.standard }
    guard let store = PropertyListDefaults(suiteName: suiteName) else {
      Diagnostics.report(
        "ObservableDefaults", "'\(suiteName)' is not a valid suite name; using the standard domain")
      return PropertyListDefaults.standard
    }
    return store
  }

  /// Tells Observation that `keyPath` of `object` was read (the expansion's `access(keyPath:)`);
  /// inlined, so a getter does not copy the registrar out of the binding.
  @inlinable
  public func access<Member>(_ object: Object, keyPath: KeyPath<Object, Member>) {
    registrar.access(object, keyPath: keyPath)
  }

  /// Reads a cached value under the lock, first loading the object from its store if that has
  /// not happened yet (an object whose own initializer did not call `observerStarter()`). For a
  /// store that reports no changes, returns the value stored now instead (the cache then keeps
  /// the value observers were last told about, so a posted change notification still tells them).
  ///
  /// While another thread applies an outside change (between its `willSet` and `didSet`), waits
  /// for it, at most 1 s: an observer woken by the `willSet` on another thread — an
  /// `Observations` sequence of a class without actor isolation — then reads the new value, not
  /// the old one with no later change to correct it. Observers on the applying thread read the
  /// old value, as Observation's `willSet` promises.
  /// - Parameters:
  ///   - key: The property's storage key without prefix.
  ///   - cached: Reads the property's cache.
  @inlinable
  public func read<Value>(_ object: Object, key: String, _ cached: (Object) -> Value) -> Value {
    let value: Value? = lock.withLock {
      if let applyingThread, pthread_equal(applyingThread, pthread_self()) == 0 { return nil }
      return readLocked(object, key: key, cached)
    }
    if let value { return value }
    _ = applying.wait(timeout: .now() + 1)
    return lock.withLock { readLocked(object, key: key, cached) }
  }

  /// ``read(_:key:_:)`` under ``lock``.
  @inlinable
  func readLocked<Value>(_ object: Object, key: String, _ cached: (Object) -> Value) -> Value {
    if !isStarted || readsThrough, let stored: Value = prepareRead(object, key: key) {
      return stored
    }
    return cached(object)
  }

  /// Starts the object if needed; for a store without change reports, returns the value of the
  /// property stored under `key` as stored now (else `nil`). Under ``lock``.
  @usableFromInline
  func prepareRead<Value>(_ object: Object, key: String) -> Value? {
    startIfNeeded(object)
    guard readsThrough, let property = persisted[key] else { return nil }
    return property.storedValue(object, resolveStore(), prefix) as? Value
  }

  /// Loads every persisted property from the store and starts following the store's changes
  /// (`observerStarter()` in the expansion). Calling it again restarts with the current store and prefix.
  public func start(_ object: Object, ignoring keyPaths: [PartialKeyPath<Object>] = []) {
    precondition(
      !prefix.contains("."), "ObservableDefaults: the key prefix '\(prefix)' must not contain '.'")
    lock.withLock {
      ignoredKeyPaths = keyPaths
      observation = nil
      notificationObservation = nil
      isStarted = false
      startIfNeeded(object)
    }
  }

  /// The store, created now if needed; called under ``lock``.
  private func resolveStore() -> any ObservableKeyValueStore {
    if let currentStore { return currentStore }
    let created = makeStore()
    currentStore = created
    return created
  }

  @usableFromInline
  func startIfNeeded(_ object: Object) {
    guard !isStarted else { return }
    isStarted = true
    // A (re)start reads every cache from the store (another one, after `store` was set): it
    // counts as a change, so a write in flight across it takes the value this store holds.
    lastChange &+= 1
    let store = resolveStore()
    readsThrough = store is FoundationDefaultsStore
    VersionedSettingsMigration.run(for: Object.self, on: store)
    SettingsSchemaPublisher.publish(properties, of: object, store: store, prefix: prefix)
    for property in properties {
      property.refresh(object, store, prefix)?.assign()
    }
    let box = WeakObject(object)
    observation = store.observe { [weak self] change in
      self?.deliver(change, to: box)
    }
    notificationObservation = StoreNotificationObservation(
      store: store, limitedToInstance: limitsToInstance
    ) {
      [weak self] keys in
      guard let self else { return }
      let keys = keys ?? lock.withLock { Set(persisted.keys.map { prefix + $0 }) }
      deliver(DefaultsChange(keys: keys, origin: .otherProcess), to: box)
    }
  }

  private func deliver(_ change: DefaultsChange, to box: WeakObject<Object>) {
    guard deliversOnMainActor, !Thread.isMainThread else {
      if let object = box.object { apply(change, to: object) }
      return
    }
    MainActorDelivery.schedule { [self] in
      if let object = box.object { apply(change, to: object) }
    }
  }

  /// Applies a store change: re-reads the changed keys, then assigns every changed cache at once
  /// inside the `withMutation` of each notified property, so no observer sees a half-applied change.
  ///
  /// The caches take the values the store holds when they are assigned, read again under the
  /// same hold of ``lock``: a local write made after the first reading (its store write and its
  /// cache update both between the two holds) is kept, not replaced by the value read before it.
  /// The first reading counts as a change (``lastChange``), so a local write in flight then
  /// takes the store's value too.
  func apply(_ change: DefaultsChange, to object: Object) {
    // The ignored key paths are read under the lock with the updates: `start(_:ignoring:)`
    // replaces them under the same lock, possibly on another thread.
    let (changed, notified) = lock.withLock {
      () -> ([SettingsProperty<Object>], [SettingsProperty<Object>.Update]) in
      lastChange &+= 1
      var changed: [SettingsProperty<Object>] = []
      var updates: [SettingsProperty<Object>.Update] = []
      for property in properties where !assigning.contains(property.keyPath) {
        guard let keys = property.storageKeys, keys.isChanged(by: change, prefix: prefix),
          let update = property.refresh(object, resolveStore(), prefix)
        else { continue }
        changed.append(property)
        updates.append(update)
      }
      assigning.formUnion(changed.lazy.map(\.keyPath))
      guard !updates.isEmpty, !ignoresExternalChanges else { return (changed, []) }
      if ignoredKeyPaths.isEmpty { return (changed, updates) }
      let ignored = Set(ignoredKeyPaths.map { $0 as AnyKeyPath })
      return (changed, updates.filter { !ignored.contains($0.keyPath) })
    }
    guard !changed.isEmpty else { return }
    OutsideChangeProbe.run(with: object)
    applying.enter()
    lock.withLock { applyingThread = pthread_self() }
    defer {
      lock.withLock { applyingThread = nil }
      applying.leave()
    }
    withMutations(of: object, notified[...]) {
      lock.withLock {
        let store = resolveStore()
        for property in changed { property.refresh(object, store, prefix)?.assign() }
        assigning.subtract(changed.lazy.map(\.keyPath))
      }
    }
  }

  private func withMutations(
    of object: Object, _ updates: ArraySlice<SettingsProperty<Object>.Update>, _ apply: () -> Void
  ) {
    guard let first = updates.first else { return apply() }
    first.withMutation(registrar) { withMutations(of: object, updates.dropFirst(), apply) }
  }

  /// Writes a new value of a persisted property to the store and notifies its observers once;
  /// does nothing when the value is unchanged or the store refuses the write (the reason is
  /// reported to ``Diagnostics`` and the property keeps its value). A value still stored under
  /// a previous key of the property moves to `key` with this write (the previous keys are
  /// removed in the same write of the store), and a value stored in an earlier version's form is
  /// stored in the new one, also when the value is unchanged.
  ///
  /// No lock is held while the store tells its observers or Observation tells the property's
  /// (they may write this object or another one, on this thread or another). The cache takes
  /// the value written only when nothing else changed the object between the store write and the
  /// cache update (see ``finishWrite(_:)``); otherwise it takes the value the store holds then,
  /// read under the same hold of ``lock``. So when threads write one property at once, or an
  /// observer writes it while this write is told, the object ends with the value the store ends
  /// with.
  ///
  /// Inlined into each setter: there the key paths are literals, so reading and assigning the
  /// cache compile to direct accesses of the object's stored property instead of key-path
  /// projections through the runtime (a third of a write in the burst benchmark's profile). The
  /// store write itself is not generic (`write(key:unchanged:encoding:scalar:)`).
  @inlinable
  public func set<Value>(
    _ newValue: Value, object: Object, property: KeyPath<Object, Value>,
    storage: ReferenceWritableKeyPath<Object, Value>, defaultValue: KeyPath<Object, Value>,
    key: String, codec: DefaultsCodec<Value>
  ) {
    let cached = read(object, key: key) { $0[keyPath: storage] }
    // A value of a common type compares by its type (`storesItself`: only the automatic codecs
    // of those types, whose `isEqual` is this comparison), not through the codec's closure.
    let unchanged =
      (codec.storesItself ? PropertyListScalar.storeSame(newValue, cached) : nil)
      ?? codec.isEqual(newValue, cached)
    // A value of a common type goes to the store typed: it is neither boxed for the codec nor
    // normalized nor compared as `Any` there.
    let outcome = write(
      key: key, unchanged: unchanged, encoding: { codec.encode(newValue) },
      scalar: codec.storesItself ? PropertyListScalar(newValue) : nil)
    let ticket: UInt64
    switch outcome {
    case .skipped: return
    case .stored(let number), .removed(let number): ticket = number
    }
    // `withMutation` spelled out: its closure would hide the key path's literal from the
    // optimizer.
    registrar.willSet(object, keyPath: property)
    lock.withLock {
      if finishWrite(ticket), case .stored = outcome {
        object[keyPath: storage] = newValue
      } else {
        object[keyPath: storage] =
          storedObjectLocked(forKey: key).flatMap(codec.decode) ?? object[keyPath: defaultValue]
      }
    }
    registrar.didSet(object, keyPath: property)
  }

  /// Ends a write numbered `ticket` (see ``write(key:unchanged:encoding:scalar:)``); whether the cache
  /// may take the value written instead of reading the store. Under ``lock``.
  ///
  /// True only when the write started with no other write unfinished (`ticket` is not 0) and no
  /// write started, no outside change was read and no start loaded the caches (from a store
  /// set meanwhile, perhaps) since (`ticket` is still ``lastChange``).
  /// Then the store holds the value written: every other write of the object made its store
  /// write before this one started or will make it after this update, and will set the cache
  /// after it; an outside change made after this write's store write is read after this
  /// update, and assigns the value it reads then (see ``apply(_:to:)``). A 64-bit count does
  /// not wrap.
  @inlinable
  func finishWrite(_ ticket: UInt64) -> Bool {
    unfinishedWrites -= 1
    return ticket == lastChange
  }

  /// What `write(key:unchanged:encoding:scalar:)` did.
  @usableFromInline
  enum WriteOutcome {
    /// Nothing was written: the value is unchanged, or the store refused it. The write is
    /// finished.
    case skipped
    /// The encoded value was stored by the write numbered by the payload (0: it started while
    /// another write was unfinished); ``finishWrite(_:)`` ends it.
    case stored(UInt64)
    /// The value encodes to nothing, so the key was removed; the payload is as for `stored`.
    case removed(UInt64)
  }

  /// Stores the value `encode` gives under `key` (prefixed), or removes the key when it gives nil.
  /// Skips an `unchanged` value unless a migration of the property is due; a refusal of the store
  /// is reported to ``Diagnostics``. A write that is not skipped is numbered (``lastChange``)
  /// and counted as unfinished before its store write; no lock is held during the store write.
  /// `scalar`, when given, is the value `encode` gives, typed: a write of one key stores it
  /// with ``ObservableKeyValueStore/write(scalar:forKey:excluding:)`` and does not call `encode`.
  @usableFromInline
  func write(
    key: String, unchanged: Bool, encoding encode: () -> Any?, scalar: PropertyListScalar?
  ) -> WriteOutcome {
    // The path of every write: locals instead of a tuple (no generic tuple metadata to look up),
    // and the property's description only when a migration may be due.
    var fullKey = ""
    var target: WriteTarget?
    var storageKeys: StorageKeys?
    var ticket: UInt64 = 0
    lock.withLock {
      fullKey = prefix.isEmpty ? key : prefix + key
      target = resolveWriteTarget()
      storageKeys = movingKeys.isEmpty ? nil : movingKeys[key]
      if !unchanged { ticket = startWrite() }
    }
    // The store and the observation are used through `target`, never copied out of it.
    guard let target else { return .skipped }
    if unchanged {
      let property = lock.withLock { persisted[key] }
      guard property?.pendingMigration(target.store, prefix) != nil else { return .skipped }
      ticket = lock.withLock { startWrite() }
    }
    if let scalar, storageKeys == nil {
      let stored = storing(key, ticket: ticket, in: target) {
        try target.store.write(scalar: scalar, forKey: fullKey, excluding: target.observation)
      }
      return stored ? .stored(ticket) : .skipped
    }
    let encoded = scalar?.storedValue ?? encode()
    // Only a property with previous keys can have a value to move; any other writes one key,
    // without building a set of writes.
    let moves = storageKeys?.writes(storing: encoded, in: target.store, prefix: prefix)
    let stored = storing(key, ticket: ticket, in: target) {
      if let moves, moves.count > 1 {
        try target.store.write(moves, excluding: target.observation)
      } else {
        try target.store.write(encoded, forKey: fullKey, excluding: target.observation)
      }
    }
    guard stored else { return .skipped }
    return encoded == nil ? .removed(ticket) : .stored(ticket)
  }

  /// Runs `storeWrite`, the store write of `key` by the write numbered `ticket`, then the
  /// store's `synchronize()` when every write must be; whether it stored. A refusal is reported
  /// to ``Diagnostics`` and ends the write.
  private func storing(
    _ key: String, ticket: UInt64, in target: WriteTarget, _ storeWrite: () throws -> Void
  ) -> Bool {
    do {
      try storeWrite()
      if synchronizesEveryWrite { _ = target.store.synchronize() }
      return true
    } catch {
      Diagnostics.report("ObservableDefaults", "\(Object.self).\(key) was not stored: \(error)")
      _ = lock.withLock { finishWrite(ticket) }
      return false
    }
  }

  /// The store (created now if needed) and the observation the writes use; under ``lock``.
  private func resolveWriteTarget() -> WriteTarget {
    if let writeTarget { return writeTarget }
    let made = WriteTarget(store: resolveStore(), observation: observation)
    writeTarget = made
    return made
  }

  /// Numbers a write that starts, and counts it as unfinished: its number, or 0 when another
  /// write is unfinished. Under ``lock``.
  private func startWrite() -> UInt64 {
    lastChange &+= 1
    unfinishedWrites += 1
    return unfinishedWrites == 1 ? lastChange : 0
  }

  /// The object the store holds now under `key` (prefixed). Under ``lock``.
  @usableFromInline
  func storedObjectLocked(forKey key: String) -> Any? {
    resolveStore().object(forKey: prefix + key)
  }
}

/// A weak reference that may cross threads; the object it names is only touched under its lock.
struct WeakObject<Object: AnyObject>: @unchecked Sendable {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}
