import Foundation

// `automaticForCloud()` picks the codec of an `@ObservableCloud` property by the rules of the
// Apple-platform library's cloud store, which are those of `automatic()` with
// ``CloudPropertyListValue`` in place of ``UserDefaultsPropertyListValue``: a type the cloud store
// does not take as it is (`Int8`, `UInt`, `URL`, …) is stored as JSON `Data` when it is `Codable`.

extension DefaultsCodec where Value: CloudPropertyListValue {
  /// Stores a ``CloudPropertyListValue`` as itself (see ``storedForm(isEqual:)``); values compare
  /// by what they store (the marker does not require `Equatable`).
  @inlinable
  static var cloudPropertyList: Self {
    DefaultsCodecCache.codec(.cloudPropertyList) { storedForm(isEqual: nil) }
  }
}

extension DefaultsCodec
where Value: RawRepresentable & CloudPropertyListValue, Value.RawValue: CloudPropertyListValue {
  /// A raw-representable cloud value: raw value first, then the value's own form.
  @inlinable
  public static func automaticForCloud() -> Self {
    DefaultsCodecCache.codec(.cloudRawValueOrPropertyList) {
      rawValue(DefaultsCodec<Value.RawValue>.cloudPropertyList, fallback: cloudPropertyList.decode)
    }
  }
}

extension DefaultsCodec where Value: RawRepresentable, Value.RawValue: CloudPropertyListValue {
  /// A raw-representable value (such as a `String` enum): stored as its raw value.
  @inlinable
  public static func automaticForCloud() -> Self {
    DefaultsCodecCache.codec(.cloudRawValue) {
      rawValue(DefaultsCodec<Value.RawValue>.cloudPropertyList)
    }
  }
}

extension DefaultsCodec where Value: CloudPropertyListValue {
  /// A value the cloud store takes as it is.
  @inlinable
  public static func automaticForCloud() -> Self { cloudPropertyList }
}

extension DefaultsCodec where Value: Codable {
  /// Any other `Codable` value (such as a struct, an `Int8` or a `URL`): stored as JSON `Data`.
  @_disfavoredOverload
  @inlinable
  public static func automaticForCloud() -> Self { json }
}

extension DefaultsCodec where Value: _OptionalCloudPropertyListValue {
  /// An optional of a value the cloud store takes as it is; `nil` removes the key.
  @inlinable
  public static func automaticForCloud() -> Self {
    DefaultsCodecCache.codec(.optionalCloudPropertyList) {
      DefaultsCodec<Value.Wrapped>.cloudPropertyList.optional as! Self
    }
  }
}

extension DefaultsCodec
where
  Value: _OptionalCloudPropertyListValue, Value.Wrapped: RawRepresentable,
  Value.Wrapped.RawValue: CloudPropertyListValue
{
  /// An optional raw-representable cloud value; `nil` removes the key.
  @inlinable
  public static func automaticForCloud() -> Self {
    DefaultsCodecCache.codec(.optionalCloudRawValueOrPropertyList) {
      let wrapped = DefaultsCodec<Value.Wrapped>.self
      return wrapped.rawValue(
        DefaultsCodec<Value.Wrapped.RawValue>.cloudPropertyList,
        fallback: wrapped.cloudPropertyList.decode
      )
      .optional as! Self
    }
  }
}

extension DefaultsCodec {
  /// An optional raw-representable value; `nil` removes the key.
  @inlinable
  public static func automaticForCloud<Wrapped>() -> Self
  where Value == Wrapped?, Wrapped: RawRepresentable, Wrapped.RawValue: CloudPropertyListValue {
    DefaultsCodecCache.codec(.optionalCloudRawValue) {
      DefaultsCodec<Wrapped>.automaticForCloud().optional
    }
  }

  /// An optional `Codable` value; `nil` removes the key (it is never stored as JSON `null`).
  @_disfavoredOverload
  @inlinable
  public static func automaticForCloud<Wrapped>() -> Self
  where Value == Wrapped?, Wrapped: Codable {
    DefaultsCodecCache.codec(.optionalJSON) { DefaultsCodec<Wrapped>.automaticForCloud().optional }
  }
}
