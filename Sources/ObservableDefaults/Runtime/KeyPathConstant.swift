/// A property's key path made once per class (a `static let` of the expansion), for the
/// registrar's `access`, `willSet` and `didSet` of every read and write.
///
/// A key path literal in a getter is instantiated by `swift_getKeyPath` at each use, which hands
/// the cached object out retained and releases it after the call: two atomic reference-count
/// updates per read, as much as the object's lock (perf and the read benchmark). A constant is
/// loaded without either. Key paths are immutable once made, so a constant may be read from any
/// thread (`@unchecked Sendable`: `KeyPath` itself is not declared `Sendable`).
public struct _KeyPathConstant<Root, Value>: @unchecked Sendable {
  /// The key path.
  public let keyPath: KeyPath<Root, Value>

  /// Keeps `keyPath`.
  public init(_ keyPath: KeyPath<Root, Value>) {
    self.keyPath = keyPath
  }
}
