extension PropertyListValue {
  /// `value` as the `String`-keyed API hands it out: every nested `[PropertyListKey: Any]` (a
  /// dictionary two of whose keys differ only in Unicode normalization, see
  /// ``PropertyListKey``) becomes a `[String: Any]` holding, of such keys, the one first in
  /// Unicode scalar order (see `Dictionary.stringKeyed`), so `as? [String: Any]` and `Codable`
  /// properties read it. A value holding no such dictionary is returned as it is (scalars are
  /// not even looked into).
  ///
  /// Only the value handed out changes: the stored one keeps both keys, on disk too, unless
  /// this value is written back.
  package static func stringKeyed(_ value: Any) -> Any {
    replacingExactDictionaries(in: value, with: stringKeyed(dictionary:)) ?? value
  }

  /// `dictionary` as ``stringKeyed(_:)`` hands it out.
  private static func stringKeyed(dictionary: [PropertyListKey: Any]) -> Any {
    dictionary.mapValues(stringKeyed).stringKeyed
  }

  /// `values` keyed by `String` (see `Dictionary.stringKeyed`), each value as
  /// ``stringKeyed(_:)`` hands it out, in one pass (a scalar costs one type comparison).
  package static func stringKeyed(values: [PropertyListKey: Any]) -> [String: Any] {
    values.stringKeyed(transformingValues: stringKeyed)
  }

  /// `value` with each outermost `[PropertyListKey: Any]` in it (itself, or nested in arrays
  /// and `[String: Any]`s) replaced by `replace` of it; nil when it holds none (nothing is
  /// copied then).
  static func replacingExactDictionaries(
    in value: Any, with replace: ([PropertyListKey: Any]) -> Any
  ) -> Any? {
    let kind = type(of: value)
    if kind == [PropertyListKey: Any].self {
      return replace(ObservableDefaultsCore.value(value, as: [PropertyListKey: Any].self))
    }
    if kind == [String: Any].self {
      let dictionary = ObservableDefaultsCore.value(value, as: [String: Any].self)
      var result: [String: Any]?
      for (key, element) in dictionary {
        guard let replaced = replacingExactDictionaries(in: element, with: replace) else {
          continue
        }
        if result == nil { result = dictionary }
        result?[key] = replaced
      }
      return result
    }
    if kind == [Any].self {
      let array = ObservableDefaultsCore.value(value, as: [Any].self)
      var result: [Any]?
      for (index, element) in array.enumerated() {
        guard let replaced = replacingExactDictionaries(in: element, with: replace) else {
          continue
        }
        if result == nil { result = array }
        result?[index] = replaced
      }
      return result
    }
    return nil
  }
}
