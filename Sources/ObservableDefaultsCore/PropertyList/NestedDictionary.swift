/// A dictionary inside a value, built entry by entry by the text readers (XML and OpenStep) as
/// the readers hand nested dictionaries out: a `[String: Any]`, or — when two of its keys are
/// equal as `String`s (canonical equivalence) but differ in their Unicode scalars — a
/// `[PropertyListKey: Any]`, which holds both, as the file, CoreFoundation and python's
/// `plistlib` do.
///
/// A key held twice exactly keeps the value met last: CoreFoundation's parsers store each entry
/// with `CFDictionarySetValue`, which replaces the value of an equal key (`parseDictTag` in
/// `CFPropertyList.c`, `parsePlistDictContent` in `CFOldStylePList.c`, swift-corelibs-foundation),
/// and `CFEqual` on strings compares their characters exactly; python's `plistlib` keeps the last
/// value too.
package struct NestedDictionary {
  private var strings: [String: Any] = [:]
  private var exact: [PropertyListKey: Any]?

  /// No entries.
  package init() {}

  /// Stores `value` under exactly `key`, replacing the value of the same key met before.
  package mutating func set(_ value: Any, forKey key: String) {
    if exact != nil {
      exact![PropertyListKey(key)] = value
      return
    }
    guard let earlier = strings.updateValue(value, forKey: key) else { return }
    // The dictionary kept the key object met first, now with this value.
    let earlierKey = strings.keys[strings.index(forKey: key)!]
    guard PropertyListKey(earlierKey) != PropertyListKey(key) else { return }
    var split = [PropertyListKey: Any](exactKeys: strings)
    split[PropertyListKey(earlierKey)] = earlier
    split[PropertyListKey(key)] = value
    (exact, strings) = (split, [:])
  }

  /// The dictionary: `[String: Any]`, or `[PropertyListKey: Any]` when keys differ only in
  /// Unicode normalization.
  package var value: Any { exact ?? strings }
}
