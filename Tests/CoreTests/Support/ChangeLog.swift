import Foundation
import ObservableDefaultsCore

/// Collects the changes an observer is told about, from any thread.
final class ChangeLog: @unchecked Sendable {
  private let lock = NSLock()
  private var changes: [DefaultsChange] = []

  /// A handler for `PropertyListDefaults.observe(_:)` that records into this log.
  var handler: @Sendable (DefaultsChange) -> Void {
    { [self] change in lock.withLock { changes.append(change) } }
  }

  var all: [DefaultsChange] {
    lock.withLock { changes }
  }

  /// The recorded changes of one origin.
  func changes(from origin: DefaultsChange.Origin) -> [DefaultsChange] {
    all.filter { $0.origin == origin }
  }
}
