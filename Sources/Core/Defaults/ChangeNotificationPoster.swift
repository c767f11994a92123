import Foundation

/// Posts `UserDefaults.didChangeNotification` for one ``PropertyListDefaults`` instance, once per
/// burst of changes.
///
/// Posting on every write cost about a quarter of a write (measured by the benchmarks), and a
/// notification without a `userInfo` says nothing a second one in the same burst would add. The
/// first change of a burst schedules one post on a background queue; changes made before it runs
/// are covered by it.
final class ChangeNotificationPoster: @unchecked Sendable {
  private weak var defaults: PropertyListDefaults?
  private let lock = NSLock()
  private var isScheduled = false

  init(_ defaults: PropertyListDefaults) {
    self.defaults = defaults
  }

  /// Notes a change; schedules the post unless one is pending.
  func changed() {
    let mustSchedule = lock.withLock {
      defer { isScheduled = true }
      return !isScheduled
    }
    guard mustSchedule else { return }
    DispatchQueue.global().async { [self] in
      lock.withLock { isScheduled = false }
      guard let defaults else { return }
      NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    }
  }
}
