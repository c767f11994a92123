import ObservableDefaultsCore

/// The value words of `write`, in the form of macOS `defaults`: `[-type] <value>`,
/// `-array <value>…` or `-dict <key> <value>…`, where each element may be preceded by a type.
enum TypedValueWords {
  /// The scalar type flags.
  static let scalarFlags: [String: PropertyListScalarType] = [
    "-string": .string, "-int": .integer, "-integer": .integer, "-float": .real,
    "-real": .real, "-bool": .bool, "-boolean": .bool, "-date": .date, "-data": .data,
  ]

  /// The property-list value `words` stand for.
  ///
  /// - Throws: ``VerbError``: `.usage(.write)` when the words fit no form, `.invalidValue` when
  ///   a value is not of its type.
  static func value(of words: [String]) throws(VerbError) -> Any {
    switch words.first {
    case "-array":
      return try elements(Array(words.dropFirst()))
    case "-dict":
      let items = try elements(Array(words.dropFirst()), keyed: true)
      var dictionary: [String: Any] = [:]
      for pair in stride(from: 0, to: items.count, by: 2) {
        guard let key = items[pair] as? String else { throw .usage(.write, "dictionary keys are strings") }
        dictionary[key] = items[pair + 1]
      }
      return dictionary
    default:
      var rest = words[...]
      let value = try scalar(&rest)
      guard rest.isEmpty else { throw .usage(.write, "one value expected (use -array for more)") }
      return value
    }
  }

  /// Array elements, or alternating dictionary keys (plain strings) and values.
  private static func elements(_ words: [String], keyed: Bool = false) throws(VerbError) -> [Any] {
    var rest = words[...]
    var items: [Any] = []
    while !rest.isEmpty {
      if keyed, items.count.isMultiple(of: 2) {
        items.append(rest.removeFirst())
      } else {
        items.append(try scalar(&rest))
      }
    }
    guard !keyed || items.count.isMultiple(of: 2) else {
      throw .usage(.write, "-dict takes keys and values in pairs")
    }
    return items
  }

  /// One `[-type] <text>` from the front of `words`.
  private static func scalar(_ words: inout ArraySlice<String>) throws(VerbError) -> Any {
    guard let first = words.popFirst() else { throw .usage(.write, "a value is missing") }
    guard first.hasPrefix("-"), first.count > 1, Double(first) == nil else {
      return first
    }
    guard let type = scalarFlags[first] else {
      throw .usage(.write, "unknown type \(first) (use -string for text that starts with -)")
    }
    guard let text = words.popFirst() else { throw .usage(.write, "\(first) needs a value") }
    do {
      return try type.parse(text)
    } catch {
      throw .invalid(error.description)
    }
  }
}
