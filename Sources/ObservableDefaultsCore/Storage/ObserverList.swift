/// The observers of one store's changes, kept under the owner's lock.
///
/// The owner copies the list while it holds its lock (so a change and the observers told about
/// it are taken together) and calls ``notify(_:excluding:)`` on the copy after releasing it: observers are
/// never called with a lock held.
struct ObserverList<Change: Sendable> {
  typealias Handler = @Sendable (Change) -> Void
  /// A handler that is handed the change's report to make, and makes it only if it reads it (a
  /// notification poster does not): a write told only to such handlers builds no report.
  typealias LazyHandler = @Sendable (_ change: () -> Change) -> Void

  /// How a handler takes a change.
  private enum Handling {
    /// Always reads it.
    case reads(Handler)
    /// Makes it only if it reads it.
    case readsIfNeeded(LazyHandler)
  }

  private var entries: [(id: UInt64, handling: Handling)] = []

  /// No observers: what an owner passes on when nothing changed.
  static var none: Self { Self() }

  /// Adds a handler under a process-unique observer id.
  mutating func add(id: UInt64, _ handler: @escaping Handler) {
    entries.append((id, .reads(handler)))
  }

  /// Adds a handler that makes the change's report only when it needs it.
  mutating func addLazy(id: UInt64, _ handler: @escaping LazyHandler) {
    entries.append((id, .readsIfNeeded(handler)))
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
    notify(excluding: excluded) { change }
  }

  /// Calls every handler (of a copy taken under the owner's lock), except the one of `excluded`,
  /// with the change `report` makes: made once, on this thread, for the handlers that always
  /// read it; a handler that reads it only if needed makes it then (or takes the one made); not
  /// made at all when no handler reads it.
  func notify(excluding excluded: UInt64?, _ report: () -> Change) {
    // Made once when a handler reads it, else never; no `Change?` kept on the way (each one
    // made, copied and destroyed went through `Optional`'s generic value witnesses, about 90
    // instructions, three times a property write), and no captured variable (a heap box per
    // write): the change made is passed on as a constant.
    let reads = entries.contains { target in
      guard target.id != excluded, case .reads = target.handling else { return false }
      return true
    }
    guard reads else {
      for target in entries where target.id != excluded {
        if case .readsIfNeeded(let handler) = target.handling { handler(report) }
      }
      return
    }
    let change = report()
    for target in entries where target.id != excluded {
      switch target.handling {
      case .reads(let handler): handler(change)
      case .readsIfNeeded(let handler): handler { change }
      }
    }
  }
}
