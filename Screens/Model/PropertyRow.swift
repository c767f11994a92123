import Foundation
import ObservableDefaultsCore

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
  /// Where the value comes from (``DefaultsLayer``), when the source knows; nil for a property
  /// that reads its declaration's default, or a file's own value.
  var layer: DefaultsLayer?

  /// What tells the row apart from the others of its source: the key (a path in a tree, where
  /// names repeat and show whether a container is open), or the name of an unstored property.
  var identity: String { key ?? name }
}

extension PropertyRow {
  /// Whether an administrator set the value (a mandatory file), so it cannot be changed.
  var isLocked: Bool {
    guard case .mandatory = layer else { return false }
    return true
  }

  /// The row with `layer`, read-only with the lock's reason when the layer is mandatory (as
  /// dconf-editor shows a locked key: not editable, and why).
  func placed(in layer: DefaultsLayer?) -> PropertyRow {
    var row = self
    row.layer = layer
    if case .mandatory(let file)? = layer {
      row.editing = .readOnly("locked: mandatory, set by \(file.path)")
    }
    return row
  }

  /// The context line's words on where the value comes from, when it is not the usual place
  /// (the user's file, or the declaration's default): `from the system default in <file>`,
  /// `from the command line`, `from a registered default`. A locked row says why instead.
  var layerText: String? {
    switch layer {
    case .system(let file)?: "from the system default in \(file.path)"
    case .commandLine?: "from the command line"
    case .registered?: "from a registered default"
    case .mandatory?, .user?, nil: nil
    }
  }
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
