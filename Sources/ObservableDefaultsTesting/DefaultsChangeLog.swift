import Foundation
public import ObservableDefaultsCore

/// Collects the changes an observer of a store is told about, from any thread.
///
/// ```swift
/// let log = DefaultsChangeLog()
/// let observation = defaults.observe(log.handler)
/// // … another process writes the suite …
/// #expect(await poll { log.all == [DefaultsChange(keys: ["name"], origin: .otherProcess)] })
/// ```
public final class DefaultsChangeLog: Sendable {
  private let changes = AnnotatedMutex<[DefaultsChange]>([])

  /// An empty log.
  public init() {}

  /// A handler for `observe(_:)` of a `PropertyListDefaults` or an `NSUbiquitousKeyValueStore`
  /// that records into this log.
  public var handler: @Sendable (DefaultsChange) -> Void {
    { [self] change in changes.withLock { $0.append(change) } }
  }

  /// Every recorded change, oldest first.
  public var all: [DefaultsChange] {
    changes.withLock { $0 }
  }

  /// The recorded changes of one origin, oldest first.
  public func changes(from origin: DefaultsChange.Origin) -> [DefaultsChange] {
    all.filter { $0.origin == origin }
  }
}
