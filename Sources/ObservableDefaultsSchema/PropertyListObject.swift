import Foundation
import ObservableDefaultsCore

/// A property-list object — `String`, `Bool`, an integer, a real number, `Date`, `Data`, or an
/// array or a `String`-keyed dictionary of those — held in canonical form (every integer that fits
/// as `Int`, reals as `Double`), compared by value.
///
/// The form values take in a store and in a published ``SettingsSchema``.
public struct PropertyListObject: @unchecked Sendable, Equatable {
  // Sendable: property-list objects are values (the arrays and dictionaries hold values only).

  /// The object in canonical form.
  public let value: Any

  /// Wraps `value` in canonical form; `nil` when it is not a property-list object.
  public init?(_ value: Any) {
    guard let canonical = PropertyListValue.normalized(value) else { return nil }
    self.value = canonical
  }

  /// Whether the two objects are equal as property-list values (an integer and a real number of
  /// the same value are not).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    propertyListValuesEqual(lhs.value, rhs.value)
  }
}
