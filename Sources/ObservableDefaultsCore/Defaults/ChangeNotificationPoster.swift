import Foundation
import Synchronization

/// Posts `UserDefaults.didChangeNotification` for one ``PropertyListDefaults`` instance, once per
/// burst of changes and at most once per millisecond.
///
/// Posting on every write cost about a quarter of a write (measured by the benchmarks), and a
/// notification without a `userInfo` says nothing a second one in the same burst would add. The
/// first change of a burst schedules one post on a background queue; changes made before it runs
/// are covered by it. A change while a post is scheduled costs one atomic load.
final class ChangeNotificationPoster: @unchecked Sendable {
  // Sendable: `defaults` is set once and only used to post.
  private weak let defaults: PropertyListDefaults?
  private let isScheduled = Atomic(false)
  private let pacing = AnnotatedMutex(JobPacing(interval: 1_000_000))

  init(_ defaults: PropertyListDefaults) {
    self.defaults = defaults
  }

  /// Notes a change; schedules the post unless one is pending.
  func changed() {
    guard !isScheduled.load(ordering: .relaxed),
      isScheduled.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    else { return }
    let delay = pacing.withLock { $0.delay() }
    DispatchQueue.global().async(afterNanoseconds: delay) { [self] in
      pacing.withLock { $0.noteStart() }
      isScheduled.store(false, ordering: .releasing)
      guard let defaults else { return }
      NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    }
  }
}
