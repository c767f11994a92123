import Foundation
import ObservableDefaultsCore
import SettingsEditor

/// Property-list values as JSON and back, without loss: JSON has no dates and no bytes, so a
/// date is `{"$date": "2023-01-08T19:59:26.426036Z"}` (ISO 8601, every digit of the fraction)
/// and data is `{"$data": "3q2+7w=="}` (Base64), as MongoDB's extended JSON writes them. JSON's
/// `null` has no property-list form and is refused.
enum JSONTransfer {
  /// `values` as pretty-printed JSON with keys sorted by their Unicode scalars (as python's
  /// `json.dumps(sort_keys=True)` and `jq -S` sort them; the XML export's order, CoreFoundation's
  /// by UTF-16 code units, differs only where a key holds a character beyond U+FFFF) and a final
  /// newline.
  /// Keys that differ only in Unicode normalization (at the top or in nested dictionaries) are
  /// each written (`JSONEncoder`, which keys by `String`, writes them through placeholders).
  ///
  /// - Throws: ``VerbError`` `.invalidValue` naming the key path of a real that is not finite
  ///   (NaN, ±infinity: a property list holds one, JSON has no form for it).
  static func data(of values: [PropertyListKey: Any]) throws -> Data {
    if let (path, real) = firstNotHeld(in: values) {
      let name = path.map { TerminalText.escaped($0) }.joined(separator: " / ")
      let instead =
        XMLHoldableValues.firstRefused(in: values) == nil
        ? "export as XML instead" : ExportEncoding.neitherHolds
      throw VerbError.invalid(
        "cannot export as JSON: \(name) holds the real \(real), which JSON cannot hold; \(instead)")
    }
    var placeholders = ExactKeyPlaceholders()
    let reals = JSONIntegralReals()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    reals.mark(in: encoder)
    // Encoded first: the placeholders are made as the values are, and restored after.
    let encoded = try encoder.encode(Value(placeholders.encodable(values), path: []))
    let text = try placeholders.restoring(in: encoded) { key in
      // A string encodes in any case; the fallback only keeps the closure total.
      String(decoding: (try? encoder.encode(key)) ?? Data(), as: UTF8.self)
    }
    return reals.restoring(in: text) + Data("\n".utf8)
  }

  /// The key path of the first real JSON cannot hold (NaN, ±infinity) in `values`, dictionaries
  /// in key order, and the real; nil when there is none.
  static func firstNotHeld(in values: [PropertyListKey: Any]) -> (path: [String], real: Double)? {
    PropertyListValue.firstFound(
      in: values, inKey: { _ in nil },
      inLeaf: { leaf -> Double? in
        // Told by the dynamic type first: a cast of each string costs more.
        guard type(of: leaf) == Double.self, let real = leaf as? Double else { return nil }
        return real.isFinite ? nil : real
      }
    ).map { ($0.path, $0.found) }
  }

  /// The dictionary `data` holds as JSON, dates and data restored. Keys that differ only in
  /// Unicode normalization (`é` as U+00E9 and as `e` U+0301) are two keys, at the top and in
  /// nested objects, as python's `json` reads them and as ``data(of:)`` writes them (see
  /// ``JSONExactKeys``); of two keys with the same scalars, the later one's value is taken, as
  /// python's `json` and `JSONSerialization` take it.
  ///
  /// - Parameter file: the input's name for messages (`-` for standard input).
  /// - Throws: ``VerbError`` `.invalidValue` naming the file, the line and column, and what was
  ///   expected; or naming the key of a `null` or of a malformed `$date` / `$data`.
  static func values(from data: Data, file: String) throws(VerbError) -> [PropertyListKey: Any] {
    // The keys are found in UTF-8 bytes: a UTF-16 text had none, and imported an empty suite.
    let data = try JSONTextEncoding.utf8(data, file: file)
    // One parse, of the text with its keys numbered: it parses exactly when the text does
    // (only the keys' strings differ, and their own text is parsed as an array of strings), so
    // the text itself is parsed only to say where it fails (a third of an import of 100,000
    // keys was parsing it first).
    let exact: JSONExactKeys
    let root: Any
    do {
      exact = try JSONExactKeys(data)
      root = try JSONSerialization.jsonObject(with: exact.numbered)
    } catch {
      throw refusal(of: data, file: file, failure: error)
    }
    guard let numbered = root as? [String: Any] else { throw notAnObject(file) }
    let entries = exact.entries(of: numbered)
    // Every member found by its number, or nothing is imported: a member left out would be a
    // key removed from the suite.
    guard entries.count == numbered.count else {
      throw .invalid("\(file): not valid JSON (an object's keys could not be read exactly)")
    }
    var result: [PropertyListKey: Any] = [:]
    result.reserveCapacity(numbered.count)
    for (key, value) in entries {
      result[PropertyListKey(key)] = try propertyListForm(value, path: key, keys: exact, file: file)
    }
    return result
  }

  /// `value` (parsed from `keys`' numbered text) with its objects under their own keys, and
  /// `$date` and `$data` objects restored.
  private static func propertyListForm(
    _ value: Any, path: String, keys: JSONExactKeys, file: String
  ) throws(VerbError) -> Any {
    switch value {
    case let text as String:
      guard let literal = keys.number(text) else { return text }
      return try number(at: literal, in: keys, file: file)
    case is NSNull:
      throw .invalid(
        "\(file): \(path) is null, which a property list cannot hold; leave the key out")
    case let array as [Any]:
      var items: [Any] = []
      for (index, item) in array.enumerated() {
        items.append(
          try propertyListForm(item, path: "\(path)[\(index)]", keys: keys, file: file))
      }
      return items
    case let numbered as [String: Any]:
      // Of two members with the same key, the later one, as python's `json` keeps it: a
      // `$date` given twice is still an object of one key.
      var seen = Set<PropertyListKey>()
      var dictionary = Array(
        keys.entries(of: numbered).reversed().filter {
          seen.insert(PropertyListKey($0.key)).inserted
        }
        .reversed())
      if dictionary.count == 1, dictionary[0].key == "$date" {
        guard let text = dictionary[0].value as? String,
          let date = try? PropertyListScalarType.date.parse(text)
        else {
          throw .invalid(
            "\(file): \(path): $date must be an ISO 8601 date like 2026-01-31T09:30:00Z, or "
              + "seconds from 2001 like -1e13 s from 2001-01-01T00:00:00Z")
        }
        return date
      }
      if dictionary.count == 1, dictionary[0].key == "$data" {
        guard let text = dictionary[0].value as? String, let bytes = Data(base64Encoded: text)
        else {
          throw .invalid("\(file): \(path): $data must be Base64 text")
        }
        return bytes
      }
      if dictionary.count == 1 { dictionary[0].key = JSONMarkerKeys.read(dictionary[0].key) }
      var entries: [PropertyListKey: Any] = [:]
      for (key, item) in dictionary {
        entries[PropertyListKey(key)] = try propertyListForm(
          item, path: "\(path).\(key)", keys: keys, file: file)
      }
      // A `[String: Any]` unless two keys differ only in Unicode normalization (as a suite's
      // reader gives a nested dictionary).
      let stringKeyed = entries.stringKeyed
      return stringKeyed.count == entries.count ? stringKeyed : entries
    default:
      return value
    }
  }

  /// The refusal of `data`, which did not parse with its keys numbered (`failure`): where the
  /// text itself fails to parse, that its top level is no object, or `failure`'s reason.
  private static func refusal(of data: Data, file: String, failure: any Error) -> VerbError {
    let root: Any
    do {
      // A number or string alone is valid JSON, and no object.
      root = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    } catch {
      let place = position(of: error, in: data).map { $0 + ": " } ?? ""
      return .invalid("\(file): \(place)not valid JSON (\(reason(of: error)))")
    }
    guard root is [String: Any] else { return notAnObject(file) }
    return .invalid("\(file): not valid JSON (\(reason(of: failure)))")
  }

  /// The value of the number at `literal` (byte offsets) in `keys`' text, read exactly
  /// (``JSONNumberLiteral``).
  ///
  /// - Throws: ``VerbError`` `.invalidValue` naming the line and column of an integer beyond
  ///   the property-list range or a real beyond a `Double`'s: not read as a rounded real.
  private static func number(
    at literal: Range<Int>, in keys: JSONExactKeys, file: String
  ) throws(VerbError) -> Any {
    let text = String(
      decoding: keys.text.dropFirst(literal.lowerBound).prefix(literal.count), as: UTF8.self)
    do {
      return try JSONNumberLiteral.value(of: text)
    } catch {
      let shown =
        text.count <= 40
        ? text : "\(text.prefix(20))…\(text.suffix(10)) (\(text.count) characters)"
      let place = place(ofOffset: literal.lowerBound, in: keys.text)
      switch error {
      case .integerOutOfRange:
        throw .invalid(
          "\(file): \(place): the integer \(shown) is beyond what a property list holds "
            + "(-9223372036854775808 to 18446744073709551615); write it as a real (with a "
            + "fraction or an exponent) or as a string")
      case .realOutOfRange:
        throw .invalid(
          "\(file): \(place): the real \(shown) is beyond what a property list holds "
            + "(±1.7976931348623157e+308); write it as a string")
      }
    }
  }

  /// The refusal of a JSON text whose top level is not an object.
  private static func notAnObject(_ file: String) -> VerbError {
    .invalid("\(file): the top level is not a JSON object (expected {\"key\": value, …})")
  }

  /// `line L, column C` of the character a JSON parser error names ("around character N", or
  /// "… at N" at its end), "at the end" for an end of the text, nil when it names no place (a
  /// number too large, for one: it said "at the end").
  private static func position(of error: any Error, in data: Data) -> String? {
    let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
    let match =
      text.firstMatch(of: /character (\d+)/)?.1 ?? text.firstMatch(of: #/ at (\d+)\.?$/#)?.1
    guard let match, let offset = Int(match), offset <= data.count else {
      return text.contains("end of file") ? "at the end" : nil
    }
    return place(ofOffset: offset, in: data)
  }

  /// `line L, column C` of the character at byte `offset` of `data`.
  private static func place(ofOffset offset: Int, in data: Data) -> String {
    let before = data.prefix(offset)
    let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
    let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
    let column = String(decoding: data[lineStart..<before.endIndex], as: UTF8.self).count + 1
    return "line \(line), column \(column)"
  }

  /// The parser's reason without its position ("Invalid value" → "invalid value").
  private static func reason(of error: any Error) -> String {
    let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
    let reason = text.replacing(/\ around (line \d+, column \d+|character \d+)\.?/, with: "")
      .replacing(#/ at \d+\.?$/#, with: "")
      .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
    // "Invalid value" → "invalid value"; an acronym ("JSON text …") keeps its capitals.
    guard reason.dropFirst().first?.isUppercase != true else { return reason }
    return reason.prefix(1).lowercased() + reason.dropFirst()
  }
}
