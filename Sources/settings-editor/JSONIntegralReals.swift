import Foundation

/// Reals whose shortest text has no fraction (`1.0`, `-0.0`, `100.0`) in a JSON export.
///
/// `JSONEncoder` writes them as `1`, `-0` and `100`, which every JSON reader (python's `json`,
/// `jq`, `import --json`) reads back as integers: a real of the suite came back an integer. They
/// are encoded as marked strings instead (``text(of:)``), and ``restoring(in:)`` writes each as
/// its number with the fraction, as python's `json.dumps` writes them.
struct JSONIntegralReals {
  /// Starts every marked string: a NUL and a random identifier, which no other string written
  /// holds (`JSONEncoder` escapes the NUL as `\u0000`).
  private let marker = "\u{0}" + UUID().uuidString + ":"

  /// The key of `JSONEncoder.userInfo` that holds the reals' marker.
  static let userInfoKey = CodingUserInfoKey(rawValue: "JSONIntegralReals")!

  /// Sets `encoder` to mark the reals it encodes through ``text(of:in:)``.
  func mark(in encoder: JSONEncoder) {
    encoder.userInfo[Self.userInfoKey] = marker
  }

  /// The marked string to encode in place of `real`, when `encoder` marks reals and `real`'s
  /// shortest text has no fraction; else nil (`JSONEncoder` writes the real as it is).
  static func text(of real: Double, in encoder: any Encoder) -> String? {
    guard let marker = encoder.userInfo[userInfoKey] as? String else { return nil }
    let text = real.description
    return text.hasSuffix(".0") ? marker + text : nil
  }

  /// `text` with each marked string written as the real it holds (`"\u0000…:1.0"` → `1.0`).
  func restoring(in text: Data) -> Data {
    let escaped = Data(("\"\\u0000" + marker.dropFirst()).utf8)
    var result = Data()
    result.reserveCapacity(text.count)
    var cursor = text.startIndex
    while let hit = text.range(of: escaped, in: cursor..<text.endIndex),
      let end = text[hit.upperBound...].firstIndex(of: UInt8(ascii: "\""))
    {
      result.append(text[cursor..<hit.lowerBound])
      result.append(text[hit.upperBound..<end])
      cursor = end + 1
    }
    result.append(text[cursor...])
    return result
  }
}
