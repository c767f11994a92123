import Foundation

/// The API of Apple's `NSUbiquitousKeyValueStore`, as Apple-platform ObservableDefaults declares
/// it, so that code written against it (a mock store for tests, a wrapper) compiles unchanged.
///
/// `NSUbiquitousKeyValueStore` conforms. Settings objects do not read or write through this
/// protocol: they use `ObservableKeyValueStore` (both in `ObservableDefaultsCore`), which also
/// reports changes key by key.
public protocol ObservableDefaultsCloudStoreProtocol {
  /// The value of `aKey`, or `nil`.
  func object(forKey aKey: String) -> Any?
  /// Stores a property-list value; `nil` removes the key.
  func set(_ anObject: Any?, forKey aKey: String)
  /// Removes the key.
  func removeObject(forKey aKey: String)
  /// The value of `aKey` when it is a `String`.
  func string(forKey aKey: String) -> String?
  /// The value of `aKey` when it is an array.
  func array(forKey aKey: String) -> [Any]?
  /// The value of `aKey` when it is a dictionary.
  func dictionary(forKey aKey: String) -> [String: Any]?
  /// The value of `aKey` when it is `Data`.
  func data(forKey aKey: String) -> Data?
  /// The value of `aKey` as a 64-bit integer; 0 when absent.
  func longLong(forKey aKey: String) -> Int64
  /// The value of `aKey` as a `Double`; 0 when absent.
  func double(forKey aKey: String) -> Double
  /// The value of `aKey` as a `Bool`; `false` when absent.
  func bool(forKey aKey: String) -> Bool
  /// Stores a string; `nil` removes the key.
  func set(_ aString: String?, forKey aKey: String)
  /// Stores data; `nil` removes the key.
  func set(_ aData: Data?, forKey aKey: String)
  /// Stores an array; `nil` removes the key.
  func set(_ anArray: [Any]?, forKey aKey: String)
  /// Stores a dictionary; `nil` removes the key.
  func set(_ aDictionary: [String: Any]?, forKey aKey: String)
  /// Stores a 64-bit integer.
  func set(_ value: Int64, forKey aKey: String)
  /// Stores a `Double`.
  func set(_ value: Double, forKey aKey: String)
  /// Stores a `Bool`.
  func set(_ value: Bool, forKey aKey: String)
  /// Every key and value of the store.
  var dictionaryRepresentation: [String: Any] { get }
  /// Sends pending changes and takes in others'; `false` when that failed.
  func synchronize() -> Bool
}

extension NSUbiquitousKeyValueStore: ObservableDefaultsCloudStoreProtocol {}
