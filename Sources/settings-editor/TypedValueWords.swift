import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsSchema
import SettingsEditor

/// The value words of `write`, in the form of macOS `defaults`: `[-type] <value>`,
/// `-array <value>…` or `-dict <key> <value>…`, where each element may be preceded by a type;
/// and `-json <text>` for a `Codable` value.
enum TypedValueWords {
  /// The property-list value `words` stand for.
  ///
  /// - Parameter storedForm: How a schema stores the key, when one lists it: `-json` text is
  ///   stored as the array or dictionary it holds for those forms, else as JSON data (the form
  ///   of a `Codable` value).
  /// - Throws: ``VerbError``: `.usage(.write)` when the words fit no form, `.invalidValue` when
  ///   a value is not of its type or `-json` text does not parse.
  static func value(of words: [String], storedForm: SettingsSchema.StoredForm? = nil)
    throws(VerbError) -> Any
  {
    var rest = words[...]
    switch words.first {
    case "-json":
      guard words.count == 2 else { throw .usage(.write, "-json takes one JSON text") }
      return try json(words[1], storedForm: storedForm)
    case "-array", "-array-add":
      rest.removeFirst()
      var items: [Any] = []
      while !rest.isEmpty { items.append(try scalar(&rest)) }
      return items
    case "-dict", "-dict-add":
      rest.removeFirst()
      // By exact key: `é` as U+00E9 and as `e` U+0301 are two keys, as in the file.
      var dictionary = NestedDictionary()
      while let key = rest.popFirst() {
        guard !rest.isEmpty else { throw .usage(.write, "-dict takes keys and values in pairs") }
        dictionary.set(try scalar(&rest), forKey: key)
      }
      return dictionary.value
    default:
      let value = try scalar(&rest)
      guard rest.isEmpty else { throw .usage(.write, "one value expected (use -array for more)") }
      return value
    }
  }

  /// `text` parsed as JSON, in the stored form the schema gives (JSON data by default).
  private static func json(_ text: String, storedForm: SettingsSchema.StoredForm?)
    throws(VerbError) -> Any
  {
    let data = Data(text.utf8)
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    } catch {
      throw .invalid("\"\(text)\" is not JSON (\(error.localizedDescription))")
    }
    switch storedForm {
    case .array?, .dictionary?:
      guard let value = PropertyListValue.normalized(object), !(object is NSNull) else {
        throw .invalid("\"\(text)\" has no property-list form (null is not stored)")
      }
      return value
    default: return data
    }
  }

  /// One `[-type] <text>` from the front of `words`.
  private static func scalar(_ words: inout ArraySlice<String>) throws(VerbError) -> Any {
    guard let first = words.popFirst() else { throw .usage(.write, "a value is missing") }
    guard first.hasPrefix("-"), first.count > 1, Double(first) == nil else {
      return first
    }
    guard let type = PropertyListScalarType(flag: first) else {
      throw .usage(.write, "unknown type \(first) (use -string for text that starts with -)")
    }
    guard let text = words.popFirst() else { throw .usage(.write, "\(first) needs a value") }
    do {
      return try type.parse(text)
    } catch {
      throw .invalid(error.description)
    }
  }

  /// `-array-add` or `-dict-add`: a value added to the one stored under the key.
  enum Addition {
    case array, dictionary

    /// The addition `flag` asks for, if any.
    init?(_ flag: String?) {
      switch flag {
      case "-array-add": self = .array
      case "-dict-add": self = .dictionary
      default: return nil
      }
    }

    /// `stored` (nil: nothing stored) with `value` added: the array's items appended, the
    /// dictionary's entries added or replaced by exact key (a key that differs from a stored
    /// one only in Unicode normalization is added beside it).
    ///
    /// - Throws: ``VerbError`` `.invalidValue` when the stored value is of another type.
    func merge(_ value: Any, into stored: Any?, key: String) throws(VerbError) -> Any {
      switch (self, stored) {
      case (.array, nil), (.dictionary, nil): return value
      case (.array, let items as [Any]): return items + (value as? [Any] ?? [])
      case (.dictionary, let stored?) where Self.entries(of: stored) != nil:
        var merged = NestedDictionary()
        for (entryKey, element) in Self.entries(of: stored)! + (Self.entries(of: value) ?? []) {
          merged.set(element, forKey: entryKey)
        }
        return merged.value
      case (_, let stored?):
        let wanted = self == .array ? "an array" : "a dictionary"
        throw .invalid(
          "\(key) holds a value of type \(DefaultsVerbs.typeName(of: stored)), not \(wanted): "
            + "nothing was added")
      }
    }

    /// The entries of a dictionary value (keyed by `String` or by exact key), or nil.
    private static func entries(of value: Any) -> [(key: String, value: Any)]? {
      if let dictionary = value as? [String: Any] { return dictionary.map { ($0.key, $0.value) } }
      if let dictionary = value as? [PropertyListKey: Any] {
        return dictionary.map { ($0.key.string, $0.value) }
      }
      return nil
    }
  }
}
