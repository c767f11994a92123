import Foundation
public import ObservableDefaultsCore

/// A backend that forwards to another and records each save: the writes a store makes (a store
/// that writes back what is already stored, or saves on every launch, shows up here).
public final class CountingCloudBackend: CloudBackend, Sendable {
  /// The backend every call goes to.
  public let base: any CloudBackend
  private let saved = AnnotatedMutex<[[PropertyListKey: CloudRecord]]>([])

  /// A backend forwarding to `base`.
  public init(_ base: any CloudBackend) {
    self.base = base
  }

  /// The number of `save(_:)` calls so far.
  public var saveCount: Int { saved.withLock { $0.count } }

  /// The keys of every save so far, oldest first.
  public var savedKeys: [Set<PropertyListKey>] { saved.withLock { $0.map { Set($0.keys) } } }

  /// The base backend's records.
  public func load() throws -> CloudRecordBatch { try base.load() }

  /// Records the save, then saves to the base backend.
  public func save(_ records: [PropertyListKey: CloudRecord]) throws {
    saved.withLock { $0.append(records) }
    try base.save(records)
  }

  /// The base backend's subscription.
  public func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> ObservationToken {
    base.subscribe(from: cursor, handler)
  }

  /// Switches the base backend's account.
  public func switchAccount(to account: String) throws { try base.switchAccount(to: account) }

  /// The base backend's state.
  public var syncStatus: CloudSyncStatus { base.syncStatus }
}
