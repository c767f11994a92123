import Foundation

/// Text that parsed as JSON, for an array, dictionary or `Codable` row: the text (a `Codable`
/// value is stored as these bytes) and the parsed object (an array or dictionary is stored as it).
///
/// Only the row's source knows which of the two its property takes; parsing first means invalid
/// JSON is refused before anything is written.
struct JSONValue {
  let text: String
  let object: Any

  /// Parses `text`; a JSON fragment (`"a"`, `3`, `null`) counts.
  ///
  /// - Throws: ``ValueInputError`` naming where the JSON is broken.
  init(parsing text: String, typeName: String) throws(ValueInputError) {
    do {
      object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    } catch {
      throw ValueInputError(
        text: text, typeName: typeName,
        reason: "not valid JSON (\(Self.reason(error)))")
    }
    self.text = text
  }

  /// The JSON text of a stored form: JSON `Data` as its text, a property-list array or
  /// dictionary serialised with sorted keys; nil for values JSON cannot hold (dates, data).
  static func text(ofStored stored: Any) -> String? {
    if let data = stored as? Data { return String(data: data, encoding: .utf8) }
    guard JSONSerialization.isValidJSONObject([stored]),
      let data = try? JSONSerialization.data(
        withJSONObject: stored, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// `text` re-serialised with sorted keys, pretty-printed over lines or compact on one; nil
  /// when it is not JSON.
  static func reformatted(_ text: String, pretty: Bool) -> String? {
    guard
      let object = try? JSONSerialization.jsonObject(
        with: Data(text.utf8), options: .fragmentsAllowed),
      let data = try? JSONSerialization.data(
        withJSONObject: object,
        options: pretty
          ? [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
          : [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  private static func reason(_ error: any Error) -> String {
    let message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return message ?? "unexpected text"
  }
}

/// One case of an enumeration row, by its raw value as text; the row's source turns it into the
/// enumeration's value. `nil` stands for the empty optional.
struct EnumerationCase: Equatable {
  let rawText: String?
}
