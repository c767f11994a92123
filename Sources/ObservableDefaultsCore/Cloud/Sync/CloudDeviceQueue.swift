package import Foundation

/// A device's serial queue of deliveries and account switches: an account switch runs on it,
/// so no delivery of the old account reaches a subscriber after the switch.
package final class CloudDeviceQueue: Sendable {
  private static let key = DispatchSpecificKey<ObjectIdentifier>()
  private let queue: DispatchQueue

  /// A queue named `ObservableDefaultsCore.cloud.<label>` (as debuggers show it).
  package init(label: String) {
    queue = DispatchQueue(label: "ObservableDefaultsCore.cloud." + label)
    queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
  }

  /// Runs `work` on the queue, later.
  package func async(_ work: @escaping @Sendable () -> Void) {
    queue.async(execute: work)
  }

  /// Runs `work` on the queue after `delay` seconds.
  package func async(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
    queue.asyncAfter(deadline: .now() + delay, execute: work)
  }

  /// Runs `body` on the queue and waits, or at once when already on it (from a subscriber's
  /// handler).
  package func sync<T>(_ body: () throws -> T) rethrows -> T {
    if DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) { return try body() }
    return try queue.sync(execute: body)
  }
}
