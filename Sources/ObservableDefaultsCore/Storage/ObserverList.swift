/// The observers of one store's changes, kept under the owner's lock.
///
/// The owner copies the list while it holds its lock (so a change and the observers told about
/// it are taken together) and calls ``notify(_:excluding:)`` on the copy after releasing it: observers are
/// never called with a lock held.
struct ObserverList<Change: Sendable> {
  typealias Handler = @Sendable (Change) -> Void

  private var entries: [(id: UInt64, handler: Handler)] = []

  /// No observers: what an owner passes on when nothing changed.
  static var none: Self { Self() }

  /// Adds a handler under a process-unique observer id.
  mutating func add(id: UInt64, _ handler: @escaping Handler) {
    entries.append((id, handler))
  }

  /// How many handlers there are.
  var count: Int { entries.count }

  /// Removes the handler of `id`.
  mutating func remove(id: UInt64) {
    entries.removeAll { $0.id == id }
  }

  /// Calls every handler (of a copy taken under the owner's lock) with `change`, except the one
  /// of `excluded`.
  func notify(_ change: Change, excluding excluded: UInt64? = nil) {
    for target in entries where target.id != excluded {
      target.handler(change)
    }
  }
}
