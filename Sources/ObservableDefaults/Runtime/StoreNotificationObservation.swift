import Foundation

/// Follows the notifications that Apple-platform code posts to make settings objects read their
/// store again: `UserDefaults.didChangeNotification` for an `@ObservableDefaults` object and
/// `NSUbiquitousKeyValueStore.didChangeExternallyNotification` for an `@ObservableCloud` one.
///
/// The Apple-platform library re-reads its keys on both (apps and its tests post them by hand).
/// Here the stores report their changes key by key anyway; these notifications matter for a
/// Foundation `UserDefaults`, which on Linux posts nothing by itself, and for code that posts them.
/// The notification's `NSUbiquitousKeyValueStoreChangedKeysKey` (a `[String]` of keys with their
/// prefix, as Apple documents it for the cloud store) names the keys to read again; without it,
/// every persisted key of the object is read again.
final class StoreNotificationObservation: @unchecked Sendable {
  // Sendable: the token is only removed in deinit.
  private let token: any NSObjectProtocol

  /// Starts following the notification of `store`'s kind; `nil` when nothing needs following.
  /// - Parameters:
  ///   - store: The object's store.
  ///   - limitedToInstance: For a `UserDefaults`: whether only notifications whose object is
  ///     this store count (`limitToInstance`); otherwise those of any object do. The cloud
  ///     notification counts whatever its object, as in the Apple-platform library.
  ///   - reread: Called on the posting thread with the named keys, or `nil` for all keys.
  init?(
    store: any ObservableKeyValueStore, limitedToInstance: Bool,
    reread: @escaping @Sendable (Set<String>?) -> Void
  ) {
    let name: Notification.Name
    let sender: AnyObject?
    if store is NSUbiquitousKeyValueStore {
      name = NSUbiquitousKeyValueStore.didChangeExternallyNotification
      sender = nil
    } else {
      let defaults = (store as? FoundationDefaultsStore)?.defaults ?? (store as? UserDefaults)
      // A PropertyListDefaults reports every change through `observe`, and posts this
      // notification itself: following it for its own object would only read again what is
      // already known.
      if limitedToInstance && (defaults == nil || defaults is PropertyListDefaults) { return nil }
      name = UserDefaults.didChangeNotification
      sender = limitedToInstance ? defaults : nil
    }
    token = NotificationCenter.default.addObserver(forName: name, object: sender, queue: nil) {
      notification in
      if notification.object is PropertyListDefaults { return }
      let keys = notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String]
      reread(keys.map(Set.init))
    }
  }

  deinit {
    NotificationCenter.default.removeObserver(token)
  }
}
