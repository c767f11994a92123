import Foundation

// `automatic()` is overloaded on the constraints of `Value`; at a call site where the property's
// type is known, Swift picks the most specific overload, which implements the codec priority
// documented on `DefaultsCodec`. `Codable` overloads are disfavoured so that any other rule wins.

extension DefaultsCodec
where
  Value: RawRepresentable & UserDefaultsPropertyListValue,
  Value.RawValue: UserDefaultsPropertyListValue
{
  /// A raw-representable property-list value: raw value first, then the value's own form.
  @inlinable
  public static func automatic() -> Self {
    DefaultsCodecCache.codec(.rawValueOrPropertyList) {
      rawValue(DefaultsCodec<Value.RawValue>.propertyList, fallback: propertyList.decode)
    }
  }
}

extension DefaultsCodec
where Value: RawRepresentable, Value.RawValue: UserDefaultsPropertyListValue {
  /// A raw-representable value (such as a `String` enum): stored as its raw value.
  @inlinable
  public static func automatic() -> Self {
    DefaultsCodecCache.codec(.rawValue) { rawValue(DefaultsCodec<Value.RawValue>.propertyList) }
  }
}

extension DefaultsCodec where Value: UserDefaultsPropertyListValue {
  /// A property-list value: stored as itself.
  @inlinable
  public static func automatic() -> Self { propertyList }
}

extension DefaultsCodec where Value: Codable {
  /// A `Codable` value (such as a struct or a `URL`): stored as JSON `Data`.
  @_disfavoredOverload
  @inlinable
  public static func automatic() -> Self { json }
}

// Optionals of property-list values are property-list values themselves (as in Apple-platform
// ObservableDefaults), so the overloads for them must be at least as specific as the one for
// `Value: UserDefaultsPropertyListValue`: they are constrained on `_OptionalPropertyListValue`
// rather than generic over `Wrapped`, which Swift would rank below that one.

extension DefaultsCodec where Value: _OptionalPropertyListValue {
  /// An optional property-list value; `nil` removes the key.
  @inlinable
  public static func automatic() -> Self {
    DefaultsCodecCache.codec(.optionalPropertyList) {
      DefaultsCodec<Value.Wrapped>.propertyList.optional as! Self
    }
  }
}

extension DefaultsCodec
where
  Value: _OptionalPropertyListValue, Value.Wrapped: RawRepresentable,
  Value.Wrapped.RawValue: UserDefaultsPropertyListValue
{
  /// An optional raw-representable property-list value; `nil` removes the key.
  @inlinable
  public static func automatic() -> Self {
    DefaultsCodecCache.codec(.optionalRawValueOrPropertyList) {
      let wrapped = DefaultsCodec<Value.Wrapped>.self
      return wrapped.rawValue(
        DefaultsCodec<Value.Wrapped.RawValue>.propertyList, fallback: wrapped.propertyList.decode
      )
      .optional as! Self
    }
  }
}

extension DefaultsCodec {
  /// An optional raw-representable value; `nil` removes the key.
  @inlinable
  public static func automatic<Wrapped>() -> Self
  where
    Value == Wrapped?, Wrapped: RawRepresentable, Wrapped.RawValue: UserDefaultsPropertyListValue
  {
    DefaultsCodecCache.codec(.optionalRawValue) { DefaultsCodec<Wrapped>.automatic().optional }
  }

  /// An optional `Codable` value; `nil` removes the key (it is never stored as JSON `null`).
  @_disfavoredOverload
  @inlinable
  public static func automatic<Wrapped>() -> Self where Value == Wrapped?, Wrapped: Codable {
    DefaultsCodecCache.codec(.optionalJSON) { DefaultsCodec<Wrapped>.automatic().optional }
  }
}
