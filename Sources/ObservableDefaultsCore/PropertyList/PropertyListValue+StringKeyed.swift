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
    replacingExactKeys(value) ?? value
  }

  /// `value` with its `[PropertyListKey: Any]` replaced (see ``stringKeyed(_:)``), or nil when
  /// it holds none.
  private static func replacingExactKeys(_ value: Any) -> Any? {
    let kind = type(of: value)
    if kind == [PropertyListKey: Any].self {
      return ObservableDefaultsCore.value(value, as: [PropertyListKey: Any].self)
        .mapValues(stringKeyed).stringKeyed
    }
    if kind == [String: Any].self {
      let dictionary = ObservableDefaultsCore.value(value, as: [String: Any].self)
      var result: [String: Any]?
      for (key, element) in dictionary {
        guard let replaced = replacingExactKeys(element) else { continue }
        if result == nil { result = dictionary }
        result?[key] = replaced
      }
      return result
    }
    if kind == [Any].self {
      let array = ObservableDefaultsCore.value(value, as: [Any].self)
      var result: [Any]?
      for (index, element) in array.enumerated() {
        guard let replaced = replacingExactKeys(element) else { continue }
        if result == nil { result = array }
        result?[index] = replaced
      }
      return result
    }
    return nil
  }
}
