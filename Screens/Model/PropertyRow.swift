/// What one row of the property table shows, read fresh each time the row is drawn.
struct PropertyRow: Equatable {
  /// The property name (for raw domains: the key).
  var name: String
  /// The storage key, or nil for a property that is observed but not stored.
  var key: String?
  /// The Swift type name, e.g. `Int` or `String?`.
  var typeName: String
  /// The value on one line.
  var value: String
  /// Whether the value differs from the property's default.
  var isModified = false
  /// The default on one line, when the property has one.
  var defaultValue: String?
  /// The property's documentation, when it has one.
  var summary: String?
  /// How the user can change the value.
  var editing: RowEditing
  /// Why the stored value is not the one shown, when it is not: a stored form the property's
  /// type does not decode (the row shows the default then), e.g.
  /// `stored "hello" (String) does not decode as Int16`.
  var problem: String?
  /// What the property's next write will change in the store (a value under a previous key or
  /// in an earlier version's form), when something waits for a migration.
  var migration: String?

  /// What tells the row apart from the others of its source: the key (a path in a tree, where
  /// names repeat and show whether a container is open), or the name of an unstored property.
  var identity: String { key ?? name }
}

/// How a row's value can be changed in the editor.
enum RowEditing: Equatable {
  /// Enter opens a line editor holding `text`; the format turns the text back into a value.
  case text(TextValueFormat, text: String)
  /// Space stores the opposite of the current flag; Enter picks `false` or `true`.
  case toggle(Bool)
  /// ←/→ (and Space) store the previous/next of `cases` (raw values as text; `nil` last when
  /// the property is optional), Enter picks one; `selected` is the current one's index.
  case choice(cases: [String?], selected: Int?)
  /// The value cannot be changed here, for the reason given.
  case readOnly(String)

  /// The allowed values for the context line, when there is a fixed set.
  var allowedValues: [String]? {
    guard case .choice(let cases, _) = self else { return nil }
    return cases.map { $0 ?? "nil" }
  }
}
