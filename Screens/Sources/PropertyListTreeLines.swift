import ObservableDefaultsCore

/// The visible lines of a property-list tree: every top-level key, and the children of each open
/// container below it (dictionary keys sorted, array elements in order).
struct PropertyListTreeLines {
  /// One visible line.
  struct Line: Equatable {
    /// Where its value is.
    let path: PropertyListPath
    /// The value's text, e.g. `Columns` or `[0]`.
    var label: String { path.last?.description ?? "" }
    /// 0 for a top-level key.
    var depth: Int { path.count - 1 }
  }

  /// The lines, top to bottom.
  let lines: [Line]

  /// Lays out `root` with the containers at `expanded` open.
  init(root: [String: Any], expanded: Set<PropertyListPath>) {
    var lines: [Line] = []
    func add(_ value: Any, at path: PropertyListPath) {
      lines.append(Line(path: path))
      guard expanded.contains(path) else { return }
      for (component, child) in Self.children(of: value) { add(child, at: path + [component]) }
    }
    for key in root.keys.sorted() { add(root[key] as Any, at: [.key(key)]) }
    self.lines = lines
  }

  /// The children of a container in display order; none for a scalar.
  static func children(of value: Any) -> [(PropertyListPathComponent, Any)] {
    switch value {
    case let dictionary as [String: Any]:
      dictionary.keys.sorted().map { (.key($0), dictionary[$0] as Any) }
    case let array as [Any]:
      array.enumerated().map { (.index($0.offset), $0.element) }
    default:
      []
    }
  }
}
