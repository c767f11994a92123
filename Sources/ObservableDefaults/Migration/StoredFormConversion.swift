import Foundation

/// How a persisted property reads a value stored in the form of an earlier version of its type:
/// the old type's codec and a conversion from the old type to the property's type (`Value`).
///
/// The key macros make one from their `convertingFrom:` argument, so the compiler checks that the
/// conversion takes a storable type and returns the property's type:
///
/// ```swift
/// // Version 1 stored whole seconds (`var timeout: Int = 300`); version 2 keeps minutes.
/// @DefaultsKey(userDefaultsKey: "timeout", convertingFrom: { (seconds: Int) in Double(seconds) / 60 })
/// var timeout: Double = 5
/// ```
///
/// The conversion applies when the stored value does not decode as `Value` but decodes as the
/// old type (a value stored in the new form is read as it is). The converted value is what the
/// property reads; its first write, or ``SettingsProperty/migrateStoredValue(of:)``, stores it in
/// the new form.
public struct StoredFormConversion<Value>: @unchecked Sendable {
  // Sendable: the function captures a codec and the user's conversion, both pure.

  /// The converted value of a stored form, or `nil` when it is not a stored old value either.
  let convert: (Any) -> Value?

  /// A conversion from values stored by `codec` (the old type's codec, chosen by the same rules
  /// as a property's: raw value, property-list value, JSON for `Codable`).
  /// - Parameters:
  ///   - codec: Reads the old type's stored form.
  ///   - conversion: Makes the property's value from an old value.
  public init<Old>(from codec: DefaultsCodec<Old>, _ conversion: @escaping (Old) -> Value) {
    convert = { stored in codec.decode(stored).map(conversion) }
  }
}

extension DefaultsCodec {
  /// This codec, also reading values stored in the old form `conversion` knows (tried only when
  /// this codec cannot read a stored value).
  func reading(_ conversion: StoredFormConversion<Value>) -> Self {
    let decode = self.decode
    return Self(
      encode: encode, decode: { stored in decode(stored) ?? conversion.convert(stored) },
      isEqual: isEqual)
  }
}
