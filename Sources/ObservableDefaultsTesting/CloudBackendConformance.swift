import Foundation
public import ObservableDefaultsCore
public import Testing

/// One fresh container of a backend under test, from which ``CloudBackendConformance`` makes
/// devices.
public protocol CloudTestContainer {
  /// A new device on this container, signed in to `account`: another machine, or a restart of
  /// one (nothing cached from an earlier device of this process).
  ///
  /// - Throws: What the backend throws when it cannot connect.
  func device(account: String) throws -> any CloudBackend
}

/// The contract every `CloudBackend` keeps, as checks a backend's own tests run: records and
/// their last-writer-wins rule, subscriptions from a resume point, account switches, the limits a
/// container holds across devices, and several devices syncing through
/// `NSUbiquitousKeyValueStore` (conflicts, pull before push, no needless writes, the change
/// notifications).
///
/// The package runs it against each of its backends (in-memory, embedded, etcd, NATS); a
/// third-party backend runs it the same way, with Swift Testing:
///
/// ```swift
/// import ObservableDefaultsTesting
/// import Testing
///
/// @Suite struct MyBackendConformanceTests {
///   let conformance = CloudBackendConformance { check in
///     try await check(MyTestContainer())  // a fresh container for each check
///   }
///
///   @Test(arguments: CloudBackendConformance.Check.allCases)
///   func conformance(_ check: CloudBackendConformance.Check) async throws {
///     try await conformance.run(check)
///   }
/// }
/// ```
///
/// Each check records its failures with Swift Testing's `#expect` in the calling test, and waits
/// for other devices with ``poll(within:until:)`` (10 s by default).
public struct CloudBackendConformance: Sendable {
  /// Runs a check with a fresh container, then removes the container.
  public typealias ContainerScope =
    @Sendable (_ check: (any CloudTestContainer) async throws -> Void) async throws -> Void

  /// One check of the contract.
  public enum Check: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A device of an empty container loads no records.
    case emptyContainerLoadsNoRecords
    /// Records of every property-list type saved by one device load on another, with their
    /// timestamps.
    case savedRecordsLoadOnAnotherDevice
    /// Each key keeps the record with the later timestamp, removals included.
    case eachKeyKeepsTheRecordWithTheLaterTimestamp
    /// A save of nothing newer leaves the container's cursor where it was.
    case savingNothingNewerChangesNothing
    /// A subscriber is told exactly the keys another device saved, in order.
    case subscriberGetsExactlyTheKeysSavedByAnotherDevice
    /// A subscription from a resume point delivers only the later saves.
    case subscribingFromAResumePointDeliversOnlyLaterSaves
    /// Switching account delivers the new account's records; saves go to it.
    case switchingAccountDeliversTheNewAccountsRecords
    /// Two devices together cannot store more than 1,024 keys; updates and removals still go
    /// through.
    case twoDevicesCannotFillTheContainerPast1024Keys
    /// A store whose save the container refuses is told the refused keys and drops them.
    case theWritingDeviceIsToldWhichKeysTheContainerRefusedAndDropsThem
    /// The same key set on two devices: the later write wins on both, and on a new device.
    case sameKeyOnTwoDevicesTheLaterWriteWinsOnBoth
    /// Different keys set on two devices both survive.
    case differentKeysOnTwoDevicesBothSurvive
    /// A new device that writes its defaults where the store has no value overwrites no cloud
    /// value.
    case aFreshDeviceWithDefaultsDoesNotOverwriteCloudValues
    /// Three restarts that only read, or write back what is stored, make no save.
    case threeRestartsWithoutEditsPerformZeroWrites
    /// Another device's changes arrive as server-change notifications naming exactly the
    /// changed keys.
    case remoteChangesArriveAsServerChangesNamingExactlyTheChangedKeys
    /// Switching account replaces the values and posts one account-change notification.
    case switchingAccountReplacesValuesAndReportsTheAccountChange
    /// Keys that differ only in Unicode normalization (`é` as U+00E9 and as `e` U+0301) are two
    /// keys on every device: stored, loaded, notified and written apart.
    case keysThatDifferOnlyInNormalizationStayTwoKeys
    /// A dictionary value whose keys differ only in Unicode normalization keeps both.
    case nestedKeysThatDifferOnlyInNormalizationStayTwoKeys

    /// The check's name in test reports.
    public var testDescription: String { rawValue }
  }

  private let withContainer: ContainerScope

  /// The checks, each run with a fresh container from `withContainer`.
  ///
  /// - Parameter withContainer: Makes a fresh container (a new bucket, key root or folder), calls
  ///   the check with it, and removes it however the check ends.
  public init(_ withContainer: @escaping ContainerScope) {
    self.withContainer = withContainer
  }

  /// Runs `check` with a fresh container.
  ///
  /// - Throws: What the container scope or the backend throws (a failed expectation is recorded,
  ///   not thrown).
  public func run(_ check: Check) async throws {
    try await withContainer { container in
      let devices = Devices(container: container)
      switch check {
      case .emptyContainerLoadsNoRecords: try await devices.emptyContainerLoadsNoRecords()
      case .savedRecordsLoadOnAnotherDevice: try await devices.savedRecordsLoadOnAnotherDevice()
      case .eachKeyKeepsTheRecordWithTheLaterTimestamp:
        try await devices.eachKeyKeepsTheRecordWithTheLaterTimestamp()
      case .savingNothingNewerChangesNothing: try await devices.savingNothingNewerChangesNothing()
      case .subscriberGetsExactlyTheKeysSavedByAnotherDevice:
        try await devices.subscriberGetsExactlyTheKeysSavedByAnotherDevice()
      case .subscribingFromAResumePointDeliversOnlyLaterSaves:
        try await devices.subscribingFromAResumePointDeliversOnlyLaterSaves()
      case .switchingAccountDeliversTheNewAccountsRecords:
        try await devices.switchingAccountDeliversTheNewAccountsRecords()
      case .twoDevicesCannotFillTheContainerPast1024Keys:
        try await devices.twoDevicesCannotFillTheContainerPast1024Keys()
      case .theWritingDeviceIsToldWhichKeysTheContainerRefusedAndDropsThem:
        try await devices.theWritingDeviceIsToldWhichKeysTheContainerRefusedAndDropsThem()
      case .sameKeyOnTwoDevicesTheLaterWriteWinsOnBoth:
        try await devices.sameKeyOnTwoDevicesTheLaterWriteWinsOnBoth()
      case .differentKeysOnTwoDevicesBothSurvive:
        try await devices.differentKeysOnTwoDevicesBothSurvive()
      case .aFreshDeviceWithDefaultsDoesNotOverwriteCloudValues:
        try await devices.aFreshDeviceWithDefaultsDoesNotOverwriteCloudValues()
      case .threeRestartsWithoutEditsPerformZeroWrites:
        try await devices.threeRestartsWithoutEditsPerformZeroWrites()
      case .remoteChangesArriveAsServerChangesNamingExactlyTheChangedKeys:
        try await devices.remoteChangesArriveAsServerChangesNamingExactlyTheChangedKeys()
      case .switchingAccountReplacesValuesAndReportsTheAccountChange:
        try await devices.switchingAccountReplacesValuesAndReportsTheAccountChange()
      case .keysThatDifferOnlyInNormalizationStayTwoKeys:
        try await devices.keysThatDifferOnlyInNormalizationStayTwoKeys()
      case .nestedKeysThatDifferOnlyInNormalizationStayTwoKeys:
        try await devices.nestedKeysThatDifferOnlyInNormalizationStayTwoKeys()
      }
    }
  }
}

/// The devices of one container, and what the checks build from them.
struct Devices {
  let container: any CloudTestContainer

  /// A new device on the container.
  func device(account: String = "default") throws -> any CloudBackend {
    try container.device(account: account)
  }

  /// A store on a new device, its saves counted.
  func store(account: String = "default") throws -> (
    NSUbiquitousKeyValueStore, CountingCloudBackend
  ) {
    let backend = CountingCloudBackend(try device(account: account))
    return (NSUbiquitousKeyValueStore(backend: backend), backend)
  }

  /// A record of `value` stamped `time` by `device`.
  func record(_ value: Any?, at time: Int64, by device: String = "d") -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: device))
  }

  /// `count` records named `<prefix>-0000`…, each holding its index, stamped `time`.
  func records(_ prefix: String, _ count: Int, at time: Int64) -> [PropertyListKey: CloudRecord] {
    Dictionary(
      uniqueKeysWithValues: (0..<count).map { index in
        (
          PropertyListKey(String(format: "%@-%04d", prefix, index)),
          record(index, at: time, by: prefix)
        )
      })
  }
}

/// Collects the events a `CloudBackend` subscription delivers, from any thread.
///
/// ```swift
/// let log = CloudEventLog()
/// let subscription = backend.subscribe(from: try backend.load().cursor, log.handler)
/// try otherDevice.save(records)
/// #expect(await poll { log.changedKeys == [["theme"]] })
/// ```
public final class CloudEventLog: Sendable {
  private let events = AnnotatedMutex<[CloudBackendEvent]>([])

  /// An empty log.
  public init() {}

  /// A handler for `CloudBackend.subscribe(from:_:)` that records into this log.
  public var handler: @Sendable (CloudBackendEvent) -> Void {
    { [self] event in events.withLock { $0.append(event) } }
  }

  /// Every event delivered so far, oldest first.
  public var all: [CloudBackendEvent] { events.withLock { $0 } }

  /// The keys of each `.changed` event, oldest first.
  public var changedKeys: [Set<PropertyListKey>] {
    all.compactMap { event in
      if case .changed(let batch) = event { return Set(batch.records.keys) }
      return nil
    }
  }
}
