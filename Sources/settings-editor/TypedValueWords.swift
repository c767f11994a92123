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
    var rest = words[...]
    switch words.first {
    case "-array":
      rest.removeFirst()
      var items: [Any] = []
      while !rest.isEmpty { items.append(try scalar(&rest)) }
      return items
    case "-dict":
      rest.removeFirst()
      var dictionary: [String: Any] = [:]
      while let key = rest.popFirst() {
        guard !rest.isEmpty else { throw .usage(.write, "-dict takes keys and values in pairs") }
        dictionary[key] = try scalar(&rest)
      }
      return dictionary
    default:
      let value = try scalar(&rest)
      guard rest.isEmpty else { throw .usage(.write, "one value expected (use -array for more)") }
      return value
    }
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
