import Foundation
import ObservableDefaults

enum Theme: String, CaseIterable, Codable { case system, light, dark }
enum Level: Int, CaseIterable {
  case low = 1
  case high = 2
}

/// A `Codable` struct stored as JSON.
struct Profile: Codable, Equatable {
  var name = "Ann"
  var age = 30
}

/// `Codable` but not `Equatable`: compared by what it stores.
struct Window: Codable {
  var width = 800.0
}

/// A type that is both raw-representable and `Codable`: stored as its raw value, not as JSON.
struct Tag: RawRepresentable, Codable, Equatable {
  var rawValue: String
}

/// Every kind of value the codec stores.
@ObservableDefaults
final class TypeSettings {
  var string = "s"
  var bool = false
  var int = 1
  var int8: Int8 = -8
  var int16: Int16 = -16
  var int32: Int32 = -32
  var int64: Int64 = -64
  var uint: UInt = 1
  var uint8: UInt8 = 8
  var uint16: UInt16 = 16
  var uint32: UInt32 = 32
  var uint64: UInt64 = 64
  var float: Float = 1.5
  var double = 2.5
  var date = Date(timeIntervalSinceReferenceDate: 0)
  var data = Data([1, 2])
  var url = URL(string: "https://example.com")!
  var strings: [String] = []
  var scores: [String: Int] = [:]
  var theme: Theme = .system
  var level: Level = .low
  var profile = Profile()
  var window = Window()
  var tag = Tag(rawValue: "t")
  var optionalString: String? = nil
  var optionalInt: Int? = 7
  var optionalTheme: Theme? = nil
  var optionalProfile: Profile? = nil
  var optionalURL: URL? = nil
}
