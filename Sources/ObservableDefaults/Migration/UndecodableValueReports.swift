import Foundation

/// Reports a stored value that does not decode as its property's type to ``Diagnostics``, once
/// per stored value and store: the property reads its default, and the stored value is kept (it is
/// replaced only when the property is set, or a migration handles it).
enum UndecodableValueReports {
  private static let reported = AnnotatedMutex<Set<String>>([])

  /// Reports that `stored`, found under `key` in `store`, is not a `Value` of `Object`'s
  /// `property`, unless this exact report was made before in this process.
  static func report<Value>(
    _ stored: Any, key: String, in store: any ObservableKeyValueStore, object: Any.Type,
    property: String,
    as _: Value.Type
  ) {
    let file = (store as? PropertyListDefaults)?.fileURL
    let place = file.map { "in \($0.lastPathComponent)" } ?? "in its store"
    let message =
      "\(object).\(property): the \(type(of: stored)) stored under '\(key)' \(place) does not decode as "
      + "\(Value.self); the property reads its default and the stored value is kept until the property is set"
    let storeIdentity = file?.path ?? "\(ObjectIdentifier(store))"
    let isNew = reported.withLock {
      $0.insert([message, storeIdentity, String(describing: stored)].joined(separator: "\u{0}"))
        .inserted
    }
    if isNew { Diagnostics.report("ObservableDefaults", message) }
  }
}
