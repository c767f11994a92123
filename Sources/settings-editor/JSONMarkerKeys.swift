/// The keys of the JSON objects that stand for a date (`{"$date": …}`) and data
/// (`{"$data": …}`) in ``JSONTransfer``, kept apart from a suite's own dictionaries.
///
/// A dictionary of the suite whose one key is `$date` or `$data`, with any number of `$` before
/// it, is written with one `$` more (`{"$date": "hello"}` as `{"$$date": "hello"}`), and an
/// object read with two or more is read with one less: every dictionary comes back as it was,
/// where `{"$date": "hello"}` was refused on import (and `{"$date": "2020-01-01T00:00:00Z"}`
/// came back a date).
enum JSONMarkerKeys {
  /// The key a one-key dictionary of the suite is written with.
  static func written(_ key: String) -> String {
    isMarkerForm(key) ? "$" + key : key
  }

  /// The key of a one-key object read, as the suite's dictionary holds it: one `$` less for a
  /// marker's form with two or more (`$$date` → `$date`); `key` itself otherwise. `$date` and
  /// `$data` themselves are the markers, read before.
  static func read(_ key: String) -> String {
    isMarkerForm(key) && key.hasPrefix("$$") ? String(key.dropFirst()) : key
  }

  /// Whether `key` is `date` or `data` after one or more `$`.
  private static func isMarkerForm(_ key: String) -> Bool {
    let name = key.drop { $0 == "$" }
    return name.count < key.count && (name == "date" || name == "data")
  }
}
