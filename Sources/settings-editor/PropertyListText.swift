import Foundation
import ObservableDefaultsCore
import SettingsEditor

/// Property-list values as text in the old-style (OpenStep) form `defaults read` prints.
///
///     {
///         age = 20;
///         name = Fatbobman;
///     }
enum PropertyListText {
  /// `value` at nesting `level`; a string is quoted unless it is a plain word. With `showsJSON`,
  /// data that holds a JSON object or array (a `Codable` value) shows that JSON:
  /// `{length = 26, json = {"height":600,"width":800}}`; otherwise data shows as hex bytes.
  static func render(_ value: Any, level: Int = 0, showsJSON: Bool = false) -> String {
    let indent = String(repeating: "    ", count: level)
    switch value {
    case let text as String:
      return quoted(text)
    case let flag as Bool where type(of: value) == Bool.self:
      return flag ? "1" : "0"
    case let date as Date:
      return quoted(PropertyListScalarType.text(of: date) ?? "")
    case let data as Data:
      if showsJSON, let json = jsonText(data) { return "{length = \(data.count), json = \(json)}" }
      return
        "{length = \(data.count), bytes = 0x\(PropertyListScalarType.hexadecimal(data))}"
    case let items as [Any]:
      guard !items.isEmpty else { return "(\n\(indent))" }
      let lines = items.map {
        "\(indent)    \(render($0, level: level + 1, showsJSON: showsJSON))"
      }
      return "(\n" + lines.joined(separator: ",\n") + "\n\(indent))"
    case let entries as [String: Any]:
      return render(entries.map { (PropertyListKey($0.key), $0.value) }, level, showsJSON)
    case let entries as [PropertyListKey: Any]:
      return render(entries.map { ($0.key, $0.value) }, level, showsJSON)
    default:
      return "\(value)"
    }
  }

  /// A dictionary's entries, in the order of their keys' Unicode scalars (keys that differ only
  /// in Unicode normalization are separate lines, in a fixed order).
  private static func render(
    _ entries: [(key: PropertyListKey, value: Any)], _ level: Int, _ showsJSON: Bool
  ) -> String {
    let indent = String(repeating: "    ", count: level)
    guard !entries.isEmpty else { return "{\n\(indent)}" }
    let lines = PropertyListKey.order(of: entries.map(\.key)).map { position in
      let (key, value) = entries[position]
      return
        "\(indent)    \(quoted(key.string)) = \(render(value, level: level + 1, showsJSON: showsJSON));"
    }
    return "{\n" + lines.joined(separator: "\n") + "\n\(indent)}"
  }

  /// One value as `read <domain> <key>` prints it: a top-level string without quotes, and with
  /// `showsJSON` top-level data holding JSON as that JSON alone (unprintable characters escaped
  /// in both, see ``TerminalText/escaped(_:)``).
  static func renderValue(_ value: Any, showsJSON: Bool = false) -> String {
    if let text = value as? String { return TerminalText.escaped(text) }
    if showsJSON, let data = value as? Data, let json = jsonText(data) { return json }
    return render(value, showsJSON: showsJSON)
  }

  /// The JSON text `data` holds when it is a JSON object or array, compact with sorted keys and
  /// unprintable characters escaped.
  private static func jsonText(_ data: Data) -> String? {
    guard data.first.map({ $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }) == true,
      let object = try? JSONSerialization.jsonObject(with: data),
      let text = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    else { return nil }
    return TerminalText.escaped(String(decoding: text, as: UTF8.self))
  }

  /// A value on one line, for `watch`: strings quoted unless plain words, containers with their
  /// items separated by spaces.
  static func renderLine(_ value: Any) -> String {
    render(value).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
  }

  /// `text` as it stands in the old-style form: as it is when it is a plain word (not empty,
  /// every byte one an unquoted string may hold, `OpenStepPropertyListReader.isUnquoted(_:)`),
  /// else in double quotes with `\` and `"` escaped and unprintable characters escaped
  /// (``TerminalText/escaped(_:)``).
  ///
  /// One pass over the UTF-8 bytes: a `CharacterSet` test of each scalar and two
  /// `replacingOccurrences(of:with:)` through `NSString` took 16,000 instructions a key and
  /// value when `settings-editor read` printed a 100,000-key suite.
  private static func quoted(_ text: String) -> String {
    if !text.isEmpty, text.utf8.allSatisfy(OpenStepPropertyListReader.isUnquoted) { return text }
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") })
    else { return "\"\(TerminalText.escaped(text))\"" }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if scalar == "\\" || scalar == "\"" { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(scalar)
    }
    return "\"\(TerminalText.escaped(escaped))\""
  }
}
