import Foundation
public import ObservableDefaultsCore

/// Records the `NSUbiquitousKeyValueStore.didChangeExternallyNotification`s posted for one store
/// object, from any thread.
///
/// ```swift
/// let notifications = CloudNotificationLog(store)
/// // … another device saves "theme" …
/// #expect(await poll {
///   notifications.all == [.init(reason: NSUbiquitousKeyValueStoreServerChange, keys: ["theme"])]
/// })
/// ```
public final class CloudNotificationLog: @unchecked Sendable {
  // Sendable: `entries` is guarded by `lock`; `token` is set in init and read in deinit only.
  /// One notification: its change reason (`NSUbiquitousKeyValueStoreServerChange`, …) and the
  /// changed keys (`NSUbiquitousKeyValueStoreChangedKeysKey`), in the order posted.
  public struct Entry: Equatable, Sendable {
    /// The `NSUbiquitousKeyValueStoreChangeReasonKey` value; -1 when the notification had none.
    public var reason: Int
    /// The `NSUbiquitousKeyValueStoreChangedKeysKey` value; empty when it had none.
    public var keys: [String]

    /// An entry of `reason` naming `keys`.
    public init(reason: Int, keys: [String]) {
      self.reason = reason
      self.keys = keys
    }
  }

  private let lock = NSLock()
  private var entries: [Entry] = []
  private var token: (any NSObjectProtocol)?

  /// Starts recording the notifications of `store` (until this log is released).
  public init(_ store: NSUbiquitousKeyValueStore) {
    token = NotificationCenter.default.addObserver(
      forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil
    ) { [self] note in
      let reason =
        (note.userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? NSNumber)?.intValue ?? -1
      let keys = note.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
      lock.withLock { entries.append(Entry(reason: reason, keys: keys)) }
    }
  }

  /// Every notification recorded so far, oldest first.
  public var all: [Entry] { lock.withLock { entries } }

  deinit {
    if let token { NotificationCenter.default.removeObserver(token) }
  }
}
