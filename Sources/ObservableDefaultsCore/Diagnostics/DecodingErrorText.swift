import Foundation

/// A `DecodingError` (or another error) in words for people, naming the field it is about:
/// `the field 'server.port' is missing`, `'port' is not a Int`.
package enum DecodingErrorText {
  /// The description of `error`.
  package static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      "the field '\(path(context.codingPath + [key]))' is missing"
    case DecodingError.typeMismatch(let type, let context):
      "\(field(context)) is not a \(type)"
    case DecodingError.valueNotFound(let type, let context):
      "\(field(context)) is null where a \(type) belongs"
    case DecodingError.dataCorrupted(let context):
      context.codingPath.isEmpty
        ? context.debugDescription : "\(field(context)): \(context.debugDescription)"
    default: "\(error)"
    }
  }

  private static func field(_ context: DecodingError.Context) -> String {
    context.codingPath.isEmpty ? "the value" : "'\(path(context.codingPath))'"
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
      .replacingOccurrences(of: ".[", with: "[")
  }
}
