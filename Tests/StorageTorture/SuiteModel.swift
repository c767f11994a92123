import Foundation

/// The reference model of one suite file: for each key (its UTF-8 bytes in hex, so keys that
/// differ only in Unicode normalisation stay two keys) the values it may hold now (codes of
/// ``ValueCode``; nil: absent), Jepsen-style:
///
/// - an acknowledged write (its flush returned) leaves exactly its value;
/// - a write that failed, or was in flight when its writer was killed, or raced a writer that
///   does not lock, may have landed or not: its value joins the old ones;
/// - after each step the file is read (python's plistlib) and every key must hold one of its
///   values; then the model is the file (each key one value again).
struct SuiteModel {
  /// Key hex → the codes it may hold (nil: absent). A key not here may only be absent.
  private(set) var possible: [String: Set<String?>] = [:]

  /// The model of a file read as `values` (key hex → code).
  init(_ values: [String: String]) {
    settle(values)
  }

  /// An acknowledged write: `key` holds `code` (nil: removed).
  mutating func acknowledged(_ key: String, _ code: String?) {
    possible[key] = [code]
  }

  /// A write that may or may not have landed.
  mutating func indeterminate(_ key: String, _ code: String?) {
    possible[key, default: [nil]].insert(code)
  }

  /// A rewrite of the whole file by Foundation (`plutil`): its dictionaries key by `String`, so
  /// of keys equal as Swift strings (canonically equivalent) it keeps one, holding the value of
  /// either; and it writes a carriage return raw in XML, which reads back as a line feed.
  ///
  /// - Returns: The keys that may have changed.
  mutating func rewrittenByFoundation(asXML: Bool) -> Set<String> {
    var changed = Set<String>()
    let groups = Dictionary(grouping: possible.keys) { ValueCode.key(Substring($0)) ?? $0 }
    for keys in groups.values where keys.count > 1 {
      let values = keys.reduce(into: Set<String?>([nil])) { $0.formUnion(possible[$1] ?? []) }
      for key in keys { possible[key] = values }
      changed.formUnion(keys)
    }
    guard asXML else { return changed }
    for (key, codes) in possible {
      for code in codes.compactMap({ $0 }) where code.hasPrefix("s") {
        guard let bytes = ValueCode.bytes(code.dropFirst()), bytes.contains(13) else { continue }
        let text = String(decoding: bytes, as: UTF8.self)
          .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        possible[key, default: []].insert("s" + ValueCode.hex(text.utf8))
        changed.insert(key)
      }
    }
    return changed
  }

  /// The model becomes the file read as `values`.
  mutating func settle(_ values: [String: String]) {
    possible = values.mapValues { [$0] }
  }

  /// What in `values` (the file) the model does not allow: one line per key, naming the key, what
  /// the file holds and what the model allowed.
  func disagreements(with values: [String: String]) -> [String] {
    let keys = Set(possible.keys).union(values.keys).sorted()
    return keys.compactMap { key in
      let allowed = possible[key] ?? [nil]
      let found = values[key]
      guard !allowed.contains(found) else { return nil }
      let what: String
      switch (found, allowed.contains(nil)) {
      case (nil, _): what = "lost"
      case (_, true) where allowed.count == 1: what = "invented"
      default: what = "wrong value"
      }
      return "key \(SuiteModel.show(key)) \(what): the file holds \(SuiteModel.show(code: found)), "
        + "the model allows \(allowed.map { SuiteModel.show(code: $0) }.sorted().joined(separator: " or "))"
    }
  }

  /// A key hex shown as its text and its hex (`"café" (636166c3a9)`).
  static func show(_ key: String) -> String {
    let text = ValueCode.key(Substring(key)) ?? "?"
    let escaped = text.unicodeScalars.map {
      $0.isASCII && $0.value >= 32 ? String($0) : "\\u{\(String($0.value, radix: 16))}"
    }
    .joined()
    return "\"\(escaped)\" (\(key))"
  }

  /// A code shown short: absent, or its first 40 characters.
  static func show(code: String?) -> String {
    guard let code else { return "absent" }
    return code.count > 40 ? String(code.prefix(40)) + "…(\(code.count) chars)" : code
  }
}
