import Foundation
import ObservableDefaults

// Declarations a user writes against Apple-platform ObservableDefaults (its public protocols,
// typealiases and conformances, as its own tests and README use them). This file must compile
// unchanged; `AppleSourceCompatibilityTests` checks what the conformances store.

/// A raw-representable type that is not `Codable`, marked with both property-list markers.
struct RawStringToken: RawRepresentable, Equatable {
  var value: String
  var rawValue: String { value }
  init?(rawValue: String) { value = rawValue }
  init(value: String) { self.value = value }
}

extension RawStringToken: UserDefaultsPropertyListValue {}
extension RawStringToken: CloudPropertyListValue {}

/// A raw-representable, `Codable` type whose raw value is an `Int` (the original's hybrid case).
struct HybridIntToken: RawRepresentable, Codable, Equatable {
  var value: Int
  var rawValue: Int { value }
  init?(rawValue: Int) { value = rawValue }
  init(value: Int) { self.value = value }
}

extension HybridIntToken: UserDefaultsPropertyListValue {}
extension HybridIntToken: CloudPropertyListValue {}

/// A raw-representable, `Codable` type with no marker: stored as its raw value, not as JSON.
struct PipeProfile: RawRepresentable, Codable, Equatable {
  var name: String
  var age: Int
  var rawValue: String { "\(name)|\(age)" }
  init?(rawValue: String) {
    let parts = rawValue.split(separator: "|", maxSplits: 1).map(String.init)
    guard parts.count == 2, let age = Int(parts[1]) else { return nil }
    name = parts[0]
    self.age = age
  }
  init(name: String, age: Int) {
    self.name = name
    self.age = age
  }
}

/// The legacy `Codable` markers, now typealiases of `Codable`.
struct LegacyDefaultsValue: CodableUserDefaultsPropertyListValue, Equatable {
  var text = "legacy"
}

struct LegacyCloudValue: CodableCloudPropertyListValue, Equatable {
  var text = "legacy"
}

/// A `Codable` struct marked as a property-list value by its author.
struct MarkedCodable: UserDefaultsPropertyListValue, Codable {
  var text = "marked"
}

/// Generic helpers constrained on the markers accept what the original's conformances list.
func storesNatively<Value: UserDefaultsPropertyListValue>(_: Value.Type) -> Bool { true }
func storesNativelyInTheCloud<Value: CloudPropertyListValue>(_: Value.Type) -> Bool { true }

let nativeDefaultsTypes = [
  storesNatively(String.self), storesNatively(Int8.self), storesNatively(UInt64.self),
  storesNatively(Float.self), storesNatively(URL.self), storesNatively(Date.self),
  storesNatively(Data.self), storesNatively(NSString.self), storesNatively(NSNumber.self),
  storesNatively(NSDate.self), storesNatively(NSData.self), storesNatively(NSURL.self),
  storesNatively([String: [Int]].self), storesNatively(String?.self), storesNatively([Bool]?.self),
]

let nativeCloudTypes = [
  storesNativelyInTheCloud(String.self), storesNativelyInTheCloud(Int.self),
  storesNativelyInTheCloud(Int64.self), storesNativelyInTheCloud(Double.self),
  storesNativelyInTheCloud(Float.self), storesNativelyInTheCloud(Bool.self),
  storesNativelyInTheCloud(Data.self), storesNativelyInTheCloud(Date.self),
  storesNativelyInTheCloud([String: [Int64]].self), storesNativelyInTheCloud(Double?.self),
]

enum Status: String, Codable {
  case active
  case inactive
}

@ObservableDefaults(prefix: "compat_")
final class CompatibilityDefaults {
  var token = RawStringToken(value: "default")
  var optionalToken: RawStringToken?
  var hybrid = HybridIntToken(value: 1)
  var optionalHybrid: HybridIntToken?
  var profile = PipeProfile(name: "Default", age: 0)
  var status = Status.active
  var legacy = LegacyDefaultsValue()
  var marked = MarkedCodable()
  var optionalInt: Int? = 25
}

/// The same keys as ``CompatibilityDefaults``' `hybrid`, as a plain `String` (data written by
/// an earlier version of the app).
@ObservableDefaults(prefix: "compat_")
final class LegacyStringDefaults {
  var value = "legacy"
}

/// The later version: the same key now holds a raw-representable, property-list type.
@ObservableDefaults(prefix: "compat_")
final class MigratedDefaults {
  var value = RawStringToken(value: "default")
}

@ObservableCloud(prefix: "compat_", developmentMode: true)
final class CompatibilityCloud {
  var token = RawStringToken(value: "default")
  var optionalToken: RawStringToken?
  var hybrid = HybridIntToken(value: 1)
  var optionalHybrid: HybridIntToken?
  var profile = PipeProfile(name: "Default", age: 0)
  var status = Status.active
  var legacy = LegacyCloudValue()
  var small: Int8 = 1
  var optionalSmall: Int8?
  var unsigned: UInt = 1
  var link = URL(string: "https://example.com")!
  var big: Int64 = 1
  var scores: [Double] = []
  var optionalName: String? = "name"
}

/// Members named like the tools' description of a class (which the macros generate under
/// `_$` names) are the user's own.
@ObservableDefaults
final class UserNamedMembers {
  var settingsProperties: String = "mine"
  var settingsStore = 1
  var settingsRoot = false
}

@ObservableCloud(developmentMode: true)
final class UserNamedMethods {
  var value = 1
  static var settingsProperties: [String] { ["user", "properties"] }
  func settingsStore() -> String { "user store" }
}

/// A test double of the cloud store, written against the original's store protocol.
final class CloudStoreDouble: ObservableDefaultsCloudStoreProtocol {
  private var values: [String: Any] = [:]
  func object(forKey aKey: String) -> Any? { values[aKey] }
  func set(_ anObject: Any?, forKey aKey: String) { values[aKey] = anObject }
  func removeObject(forKey aKey: String) { values[aKey] = nil }
  func string(forKey aKey: String) -> String? { values[aKey] as? String }
  func array(forKey aKey: String) -> [Any]? { values[aKey] as? [Any] }
  func dictionary(forKey aKey: String) -> [String: Any]? { values[aKey] as? [String: Any] }
  func data(forKey aKey: String) -> Data? { values[aKey] as? Data }
  func longLong(forKey aKey: String) -> Int64 { values[aKey] as? Int64 ?? 0 }
  func double(forKey aKey: String) -> Double { values[aKey] as? Double ?? 0 }
  func bool(forKey aKey: String) -> Bool { values[aKey] as? Bool ?? false }
  func set(_ aString: String?, forKey aKey: String) { values[aKey] = aString }
  func set(_ aData: Data?, forKey aKey: String) { values[aKey] = aData }
  func set(_ anArray: [Any]?, forKey aKey: String) { values[aKey] = anArray }
  func set(_ aDictionary: [String: Any]?, forKey aKey: String) { values[aKey] = aDictionary }
  func set(_ value: Int64, forKey aKey: String) { values[aKey] = value }
  func set(_ value: Double, forKey aKey: String) { values[aKey] = value }
  func set(_ value: Bool, forKey aKey: String) { values[aKey] = value }
  var dictionaryRepresentation: [String: Any] { values }
  func synchronize() -> Bool { true }
}

/// A double and the real store, used through the original's store protocol.
func cloudStores() -> [any ObservableDefaultsCloudStoreProtocol] {
  [CloudStoreDouble(), NSUbiquitousKeyValueStore.inMemory()]
}
