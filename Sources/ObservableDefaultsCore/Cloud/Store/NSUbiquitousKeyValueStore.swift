public import Foundation

/// A cloud key-value store with the API of Apple's `NSUbiquitousKeyValueStore`, so that code
/// written for Apple's store compiles and behaves alike on Linux.
///
/// Apple's store "is an iCloud-based container of key-value pairs you share among instances of
/// your app running on a person's devices"
/// (https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore). Here the
/// container is kept by a ``CloudBackend``: by default an ``EmbeddedCloudBackend``, a folder on
/// disk shared by the processes of this machine, where each process is a device with its own copy.
///
/// - Values are property-list values (`String`, `Data`, `Date`, `Bool`, integers, reals, arrays
///   and `[String: Any]` dictionaries of them), kept in canonical form (every integer reads back
///   as `Int`, every real as `Double`).
/// - A write is visible through every store object of the backend in this process at once, and
///   reaches other devices shortly after as a server change naming exactly the changed keys.
///   Conflicts are resolved per key: the later write wins (see ``CloudTimestamp``).
/// - Apple's limits are enforced (see ``CloudQuota``): a write that would exceed one is not
///   applied and is reported as Apple's store does, with
///   ``didChangeExternallyNotification`` and ``NSUbiquitousKeyValueStoreQuotaViolationChange``,
///   plus a report to ``Diagnostics`` for the developer.
/// - As on Apple platforms, ``didChangeExternallyNotification`` is posted only for changes from
///   the container (and quota violations), never for this process's own writes. ``observe(_:)``
///   reports both kinds, for the settings objects of `@ObservableCloud`.
///
/// ```swift
/// let store = NSUbiquitousKeyValueStore.default
/// store.set("Fatbobman", forKey: "name")
/// NotificationCenter.default.addObserver(
///   forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil
/// ) { note in print(note.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] ?? []) }
/// ```
open class NSUbiquitousKeyValueStore: NSObject, @unchecked Sendable {
  // Sendable: an open NSObject subclass (as Apple's); its one `var` is set in init only.
  /// The backend keeping this store's container.
  public let backend: any CloudBackend
  /// The device copy shared by every store object of ``backend``.
  let device: CloudDevice
  /// Posts ``didChangeExternallyNotification`` for this object.
  private var notificationObservation: ObservationToken?

  /// Posted when values changed because of another device, a first sync, a quota violation or
  /// an account change; the object is the store.
  ///
  /// Apple: "Posted when the value of one or more keys changes due to incoming data from
  /// iCloud." Its `userInfo` holds ``NSUbiquitousKeyValueStoreChangeReasonKey`` (an `NSNumber`)
  /// and ``NSUbiquitousKeyValueStoreChangedKeysKey`` (a `[String]`; for a quota violation, the
  /// key that was refused). Posted on the backend's queue for changes from the container, and on
  /// the writing thread for a quota violation.
  public static let didChangeExternallyNotification = Notification.Name(
    "NSUbiquitousKeyValueStoreDidChangeExternallyNotification")

  /// The shared store of this program, created on first use. Its backend is, in this order: the
  /// one given to ``setDefaultBackend(_:)``; a sync engine's, when the environment or
  /// ``CloudConfigurationFile`` names one that the program registered (the `ObservableDefaults`
  /// module registers etcd with its `EtcdSupport` trait, on by default, and NATS with
  /// `NATSSupport`: `OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS`, `OBSERVABLE_DEFAULTS_NATS_SERVERS`);
  /// else an ``EmbeddedCloudBackend`` with the default container (the program's name), account
  /// (`$OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT` or `default`) and folder (see
  /// ``CloudContainerDirectory``).
  open class var `default`: NSUbiquitousKeyValueStore { shared }

  private static let shared = NSUbiquitousKeyValueStore(backend: CloudDefaultBackend.backend)

  /// Chooses the backend of ``default`` (and of ``init()``) — an addition to Apple's API. Call
  /// it before the default store is first used (by `@ObservableCloud` classes too), e.g. first
  /// thing in `main`.
  ///
  /// ```swift
  /// try NSUbiquitousKeyValueStore.setDefaultBackend(
  ///   EtcdCloudBackend(configuration: EtcdConfiguration(endpoints: ["https://10.0.0.2:2379"], account: "alice")))
  /// ```
  ///
  /// - Parameter backend: The backend of the default store.
  /// - Throws: ``CloudBackendSelectionError`` when the default store was already used (it keeps
  ///   its backend).
  public static func setDefaultBackend(_ backend: any CloudBackend) throws {
    try CloudDefaultBackend.choose(backend)
  }

  /// Another store object of the shared store (see ``default``); it shares its values.
  public override convenience init() {
    self.init(backend: CloudDefaultBackend.backend)
  }

  /// A store kept by `backend` (an addition to Apple's API).
  ///
  /// Store objects created with the same backend object share one device copy; the first one
  /// loads the backend's records before anything can be written, so a new device never
  /// overwrites cloud values with its own.
  ///
  /// - Parameter backend: The container connection, e.g. ``EmbeddedCloudBackend`` or
  ///   ``InMemoryCloudBackend``.
  public init(backend: any CloudBackend) {
    self.backend = backend
    device = CloudDeviceRegistry.shared.device(for: backend)
    super.init()
    let weakSelf = WeakStore(self)
    notificationObservation = device.addObserver { change in
      // This process's own writes post nothing: told without loading the store.
      guard let reason = change.reason else { return }
      weakSelf.store?.postDidChangeExternally(change.keys, reason: reason)
    }
  }

  /// A store on a fresh ``InMemoryCloudBackend`` (an addition to Apple's API): nothing is read
  /// from or written to disk. For development mode and previews.
  public static func inMemory() -> NSUbiquitousKeyValueStore {
    NSUbiquitousKeyValueStore(backend: InMemoryCloudBackend())
  }

  // MARK: Reading

  /// The value of `aKey`, or nil.
  ///
  /// A nested dictionary two of whose keys differ only in Unicode normalization (the store keeps
  /// both) is a `[String: Any]` here, which holds one of them, the first in Unicode scalar order;
  /// ``exactDictionaryRepresentation`` gives both.
  open func object(forKey aKey: String) -> Any? {
    device.value(forKey: PropertyListKey(aKey)).map(PropertyListValue.stringKeyed)
  }

  /// The value of `aKey` when it is a string, else nil.
  open func string(forKey aKey: String) -> String? {
    object(forKey: aKey) as? String
  }

  /// The value of `aKey` when it is an array, else nil.
  open func array(forKey aKey: String) -> [Any]? {
    object(forKey: aKey) as? [Any]
  }

  /// The value of `aKey` when it is a dictionary, else nil.
  open func dictionary(forKey aKey: String) -> [String: Any]? {
    object(forKey: aKey) as? [String: Any]
  }

  /// The value of `aKey` when it is data, else nil.
  open func data(forKey aKey: String) -> Data? {
    object(forKey: aKey) as? Data
  }

  /// The value of `aKey` as a 64-bit integer: integers as they are, reals truncated, `true` as 1,
  /// numeric strings parsed; 0 otherwise.
  open func longLong(forKey aKey: String) -> Int64 {
    Int64(TypedValueConversion.integer(from: object(forKey: aKey)))
  }

  /// The value of `aKey` as a `Double`: reals and integers converted, `true` as 1, numeric
  /// strings parsed; 0 otherwise.
  open func double(forKey aKey: String) -> Double {
    TypedValueConversion.double(from: object(forKey: aKey))
  }

  /// The value of `aKey` as a `Bool`: Booleans as they are, numbers other than 0 as true, strings
  /// as `NSString.boolValue` reads them ("YES", "true", "1"…); false otherwise.
  open func bool(forKey aKey: String) -> Bool {
    switch object(forKey: aKey) {
    case let value as Bool: return value
    case let value as String: return NSString(string: value).boolValue
    case let value: return TypedValueConversion.double(from: value) != 0
    }
  }

  /// Every key and value of the store (this device's copy).
  ///
  /// Apple: "A dictionary with all of the key-value pairs in the iCloud key-value store."
  ///
  /// A `[String: Any]` cannot hold two keys that differ only in Unicode normalization (which
  /// the store keeps apart, as a property-list file does): of those, the one first in Unicode
  /// scalar order is here, and ``exactDictionaryRepresentation`` has each.
  open var dictionaryRepresentation: [String: Any] {
    PropertyListValue.stringKeyed(values: device.allValues())
  }

  /// Every key and value of the store (this device's copy), keyed by exact key: keys that
  /// differ only in Unicode normalization are separate entries (an addition to Apple's API).
  public var exactDictionaryRepresentation: [PropertyListKey: Any] {
    device.allValues()
  }

  // MARK: Writing (Apple's setters; a refused write is reported, see `write(_:forKey:excluding:)`)

  /// Stores a property-list value under `aKey`; nil removes the key.
  open func set(_ anObject: Any?, forKey aKey: String) {
    writeReportingFailure(anObject, forKey: aKey)
  }

  /// Stores a string under `aKey`; nil removes the key.
  open func set(_ aString: String?, forKey aKey: String) {
    writeReportingFailure(aString, forKey: aKey)
  }

  /// Stores data under `aKey`; nil removes the key.
  open func set(_ aData: Data?, forKey aKey: String) {
    writeReportingFailure(aData, forKey: aKey)
  }

  /// Stores an array of property-list values under `aKey`; nil removes the key.
  open func set(_ anArray: [Any]?, forKey aKey: String) {
    writeReportingFailure(anArray, forKey: aKey)
  }

  /// Stores a dictionary of property-list values under `aKey`; nil removes the key.
  open func set(_ aDictionary: [String: Any]?, forKey aKey: String) {
    writeReportingFailure(aDictionary, forKey: aKey)
  }

  /// Stores a 64-bit integer under `aKey` (read back as `Int`, or with ``longLong(forKey:)``).
  open func set(_ value: Int64, forKey aKey: String) {
    writeReportingFailure(value, forKey: aKey)
  }

  /// Stores a `Double` under `aKey`.
  open func set(_ value: Double, forKey aKey: String) {
    writeReportingFailure(value, forKey: aKey)
  }

  /// Stores a `Bool` under `aKey`.
  open func set(_ value: Bool, forKey aKey: String) {
    writeReportingFailure(value, forKey: aKey)
  }

  /// Removes `aKey` (a removal that wins over older writes on other devices).
  open func removeObject(forKey aKey: String) {
    writeReportingFailure(nil, forKey: aKey)
  }

  /// ``write(_:forKey:excluding:)``, reporting a refusal to ``Diagnostics`` (Apple's
  /// setters cannot fail either; a quota violation is also posted as a notification).
  private func writeReportingFailure(_ value: Any?, forKey key: String) {
    do {
      try write(value, forKey: key)
    } catch {
      Diagnostics.report("NSUbiquitousKeyValueStore", "\(error)")
    }
  }

  // MARK: Syncing

  /// Saves the writes not yet in the container, then reads the container and merges what other
  /// devices wrote (reported as server changes), and waits for both.
  ///
  /// Apple: "Synchronizes the in-memory keys and values with the ones stored in iCloud" and
  /// returns "`true` if the in-memory and iCloud keys are synchronized, or `false` if an error
  /// occurred" (https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/synchronize()).
  /// It is rarely needed: writes are saved shortly after they are made and at normal exit, and
  /// other devices' writes arrive on their own.
  ///
  /// - Returns: false when the container could not be written or read (see ``lastError``).
  @discardableResult
  open func synchronize() -> Bool {
    device.synchronize()
  }

  /// Waits until the device's first load finished (it answers reads from the backend's local
  /// copy meanwhile, see ``CloudLocalFirstBackend``): for tools that report the state an
  /// exchange proved.
  package func waitForFirstLoad() {
    device.waitForFirstLoad()
  }

  /// The last failure to read or write the container through this backend; nil after the next
  /// success (an addition to Apple's API).
  public var lastError: (any Error)? {
    device.lastError
  }

  /// Why the container's record of `key` was refused, or nil (an addition to Apple's API): a
  /// record whose bytes are not a valid record, or whose timestamp is more than 24 hours ahead
  /// of this device's clock, is not taken, and the store keeps its own value of the key.
  ///
  /// - Parameter key: The key.
  /// - Returns: The reason, for people (e.g. `the record's value was refused: binary property
  ///   list: object 1 at byte 10 is a set, which preferences cannot hold`).
  public func refusal(forKey key: String) -> String? {
    device.refusal(forKey: PropertyListKey(key))
  }

  /// How this device's connection to the container is doing (an addition to Apple's API): the
  /// backend, the endpoint in use, connected or offline, the last sync, and the writes pending —
  /// those the backend has yet to push (etcd while offline) and those this store keeps back
  /// while the container cannot be read or written (``EmbeddedCloudBackend`` keeps them on disk
  /// across exits meanwhile).
  public var syncStatus: CloudSyncStatus {
    var status = backend.syncStatus
    status.pendingCount += device.pendingWriteCount
    return status
  }

  /// Signs this device into another account (an addition to Apple's API, standing in for a change
  /// of Apple account): pending writes are saved to the old account first, then the device's copy
  /// is replaced with the new account's values and ``didChangeExternallyNotification`` is posted
  /// with ``NSUbiquitousKeyValueStoreAccountChange`` and the keys whose values differ.
  ///
  /// - Parameter account: The new account (``EmbeddedCloudBackend``: a folder name).
  /// - Throws: What the backend throws when the new account cannot be read; nothing changes then.
  public func switchAccount(to account: String) throws {
    device.flush()
    try backend.switchAccount(to: account)
  }
}

/// A weak reference to a store that a `@Sendable` closure can hold.
private final class WeakStore: Sendable {
  weak let store: NSUbiquitousKeyValueStore?
  init(_ store: NSUbiquitousKeyValueStore) { self.store = store }
}
