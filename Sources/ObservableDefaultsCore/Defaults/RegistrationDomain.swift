import Foundation

/// The process-wide registration domain: defaults registered by `register(defaults:)` on any
/// ``PropertyListDefaults``, read when a suite has no value for a key (as in Foundation).
final class RegistrationDomain: @unchecked Sendable {
  // Sendable: `values`, guarded by `lock`, holds property-list values (`Any`), which a `Mutex`
  // cannot hand out.
  static let shared = RegistrationDomain()

  private let lock = NSLock()
  private var values: [String: Any] = [:]

  /// Merges `defaults` (canonical form where possible) over the registered defaults.
  func register(_ defaults: [String: Any]) {
    let canonical = defaults.mapValues { PropertyListValue.normalized($0) ?? $0 }
    lock.withLock { values.merge(canonical) { $1 } }
  }

  /// The registered default for `key`, or nil.
  func value(forKey key: String) -> Any? {
    lock.withLock { values[key] }
  }

  /// Every registered default.
  func all() -> [String: Any] {
    lock.withLock { values }
  }
}
