import ObservableDefaultsCore

/// One change of a stored value that a row source saw: the key, the stored values before and
/// after, and who made it.
struct SeenChange {
  /// The storage key.
  var key: String
  /// The stored value before (nil: not stored).
  var old: Any?
  /// The stored value after (nil: removed).
  var new: Any?
  /// Who made it, as the library tells it.
  var writer: DefaultsChange.Writer
  /// Whether a key typed in this editor made it (not only this process).
  var byEditor = false
  /// How many observers of the store the library told of it.
  var observersTold = 0

  /// For people: `this editor`, `this editor (reset)`, `this program` (the program showing the
  /// editor, outside the editor), or the writer's description.
  var origin: String {
    if byEditor { return writer == .reset ? "this editor (reset)" : "this editor" }
    return writer == .thisProcess ? "this program" : writer.description
  }

  /// A stored value on one line for the change log (`(none)` when not stored).
  static func text(of value: Any?) -> String {
    value.map { ValueSummary($0).text } ?? "(none)"
  }
}
