import Foundation

/// How one property's value is stored in a property list: the codec of a persisted property.
///
/// The macros pick the codec from the property's type with `automatic()`, by this fixed
/// priority (the rules of Apple-platform ObservableDefaults' "storage resolution"):
/// 1. `RawRepresentable` whose `RawValue` is a property-list type → its raw value (a type that is
///    also a property-list value reads either form back);
/// 2. a ``UserDefaultsPropertyListValue`` → the value itself;
/// 3. `Codable` only (this includes `URL`) → JSON `Data` from `JSONEncoder`.
///
/// For optionals the same rules apply to the wrapped value, and `nil` removes the key.
public struct DefaultsCodec<Value>: @unchecked Sendable {
  // Sendable: the functions are pure and capture nothing mutable.

  /// The property-list object to store, or `nil` to remove the key.
  public let encode: (Value) -> Any?
  /// The value read back from a stored object, or `nil` when the object is of another type
  /// (the property then falls back to its registered or declaration-time default).
  public let decode: (Any) -> Value?
  /// Whether two values store the same thing; a write of an equal value is skipped.
  public let isEqual: (Value, Value) -> Bool
  /// Why a stored object does not decode, for people (`the field 'port' is missing`), or nil
  /// when the codec cannot tell.
  public let explainFailure: (Any) -> String?
  /// Whether ``encode`` gives the value itself, of a type ``PropertyListScalar`` holds: the
  /// property's writes then pass the value to the store as a ``PropertyListScalar``, typed
  /// (``ObservableKeyValueStore/write(scalar:forKey:excluding:)``). Set only by the automatic
  /// codecs of those types.
  @usableFromInline var storesItself = false

  /// Creates a codec from its functions.
  ///
  /// - Parameters:
  ///   - encode: The property-list object to store for a value, or `nil` to remove the key.
  ///   - decode: The value of a stored object, or `nil` when it is not one.
  ///   - isEqual: Whether two values store the same thing.
  ///   - explainFailure: Why a stored object does not decode (nil: the codec cannot tell).
  public init(
    encode: @escaping (Value) -> Any?,
    decode: @escaping (Any) -> Value?,
    isEqual: @escaping (Value, Value) -> Bool,
    explainFailure: @escaping (Any) -> String? = { _ in nil }
  ) {
    self.encode = encode
    self.decode = decode
    self.isEqual = isEqual
    self.explainFailure = explainFailure
  }

  /// The same rules for `Value?`: `nil` removes the key, anything else is encoded as `Value`.
  public var optional: DefaultsCodec<Value?> {
    let codec = self
    return DefaultsCodec<Value?>(
      encode: { $0.flatMap(codec.encode) },
      decode: { codec.decode($0) },
      isEqual: { lhs, rhs in
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): codec.isEqual(lhs, rhs)
        default: false
        }
      },
      explainFailure: codec.explainFailure
    )
  }
}

extension DefaultsCodec {
  /// Compares values by what they store, for types that are not `Equatable`.
  static func encodedEquality(_ encode: @escaping (Value) -> Any?)
    -> (Value, Value) -> Bool
  {
    { propertyListValuesEqual(encode($0), encode($1)) }
  }

  /// Stores the raw value in the form `raw` gives it; reads the raw value first, then (with a
  /// `fallback`, for types that are property-list values themselves) the value in its own form.
  @usableFromInline
  static func rawValue(_ raw: DefaultsCodec<Value.RawValue>, fallback: ((Any) -> Value?)? = nil)
    -> Self
  where Value: RawRepresentable {
    Self(
      encode: { raw.encode($0.rawValue) },
      decode: { object in
        if let rawValue = raw.decode(object) { return Value(rawValue: rawValue) }
        return fallback?(object)
      },
      isEqual: { raw.isEqual($0.rawValue, $1.rawValue) }
    )
  }

  /// Stores a value in the form its type has at run time: the form ``_PropertyListRepresentable``
  /// gives the types this library knows; JSON `Data` for another `Codable` type (a type of yours
  /// marked as a property-list value, and `URL`); else the value as it is.
  /// - Parameter isEqual: How values compare; `nil` compares what they store.
  @usableFromInline
  static func storedForm(isEqual: ((Value, Value) -> Bool)?) -> Self {
    // The type is looked at once per codec; the codec's functions then make no dynamic casts.
    let form: Self =
      if let type = Value.self as? any _PropertyListRepresentable.Type {
        representableCodec(type) as! Self
      } else if let type = Value.self as? any Codable.Type {
        jsonCodec(type) as! Self
      } else {
        Self(encode: { $0 }, decode: { $0 as? Value }, isEqual: encodedEquality { $0 })
      }
    var codec = Self(encode: form.encode, decode: form.decode, isEqual: isEqual ?? form.isEqual)
    codec.storesItself = form.storesItself
    return codec
  }
}

extension DefaultsCodec where Value: UserDefaultsPropertyListValue {
  /// Stores a ``UserDefaultsPropertyListValue`` as a property-list object (see ``storedForm(isEqual:)``).
  @inlinable
  static var propertyList: Self {
    // A string compares by its Unicode scalars, as it is stored (``storedFormEquality(of:)``).
    DefaultsCodecCache.codec(.propertyList) {
      storedForm(isEqual: Value.self == String.self ? nil : { $0 == $1 })
    }
  }
}

/// The codec of a type with a property-list form of its own, as `Any` (it is the caller's `Self`).
private func representableCodec<Value: _PropertyListRepresentable>(_: Value.Type) -> Any {
  var codec = DefaultsCodec<Value>(
    encode: { $0.propertyListObject },
    decode: { Value(propertyListObject: $0) },
    isEqual: storedFormEquality(of: Value.self)
      ?? DefaultsCodec<Value>.encodedEquality { $0.propertyListObject }
  )
  // The property-list form of each of these types is the value itself.
  codec.storesItself = PropertyListScalar.holds(Value.self)
  return codec
}

/// The JSON codec of a `Codable` type, as `Any` (it is the caller's `Self`).
private func jsonCodec<Value: Codable>(_: Value.Type) -> Any {
  DefaultsCodec<Value>.json
}

extension DefaultsCodec where Value: Codable {
  /// Stores the value as JSON `Data` with sorted keys (so one value always stores the same bytes,
  /// and comparing stored forms compares values); reads it back with `JSONDecoder`.
  @inlinable
  static var json: Self { DefaultsCodecCache.codec(.json) { makeJSON() } }

  @usableFromInline
  static func makeJSON() -> Self {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // An optional can arrive here when Swift prefers this overload to the optional one: its
    // `nil` still removes the key instead of being stored as JSON `null`.
    let encode: (Value) -> Any? = { value in
      if let optional = value as? any OptionalType, optional.isNone { return nil }
      return try? encoder.encode(value)
    }
    return Self(
      encode: encode,
      decode: { object in
        (object as? Data).flatMap { try? JSONDecoder().decode(Value.self, from: $0) }
      },
      isEqual: encodedEquality(encode),
      explainFailure: { object in
        guard let data = object as? Data else { return "it is not JSON data" }
        do {
          _ = try JSONDecoder().decode(Value.self, from: data)
          return nil
        } catch {
          return DecodingErrorText.describe(error)
        }
      }
    )
  }
}
