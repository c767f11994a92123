import Foundation

/// The objects libnats calls back into, by number.
///
/// libnats calls its handlers on its own threads with a `void *` closure, and may still call one
/// after the connection or subscription was destroyed (its callbacks are queued on a thread of
/// the library). So the closure is not a pointer to a Swift object but a number: a handler looks
/// the number up here and finds the object only while it is registered and alive (a weak
/// reference), so a late call finds nothing instead of a freed object, and libnats holds no
/// reference that could keep an object alive or form a cycle.
enum NATSCallbacks {
  private final class Weak {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var objects: [Int: Weak] = [:]
  nonisolated(unsafe) private static var next = 1

  /// Registers `object`; the returned closure finds it until ``unregister(_:)``.
  static func register(_ object: AnyObject) -> UnsafeMutableRawPointer {
    lock.withLock {
      defer { next += 1 }
      objects[next] = Weak(object)
      // A number, never dereferenced: `next` starts at 1, so the pointer is never null.
      return UnsafeMutableRawPointer(bitPattern: next)!
    }
  }

  /// The object registered as `closure`, if it is still registered and alive.
  static func object<T: AnyObject>(_ closure: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
    guard let closure else { return nil }
    return lock.withLock { objects[Int(bitPattern: closure)]?.object as? T }
  }

  /// Forgets `closure`: later calls with it find nothing.
  static func unregister(_ closure: UnsafeMutableRawPointer) {
    _ = lock.withLock { objects.removeValue(forKey: Int(bitPattern: closure)) }
  }
}
