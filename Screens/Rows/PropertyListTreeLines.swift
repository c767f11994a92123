import ObservableDefaultsCore

/// The visible lines of a property-list tree: every top-level key, and the children of each open
/// container below it (dictionary keys sorted, array elements in order).
struct PropertyListTreeLines {
  /// One visible line.
  ///
  /// Stored as the top-level key and the rest of the path, so a top-level line (most of a large
  /// suite's) allocates nothing beyond its key.
  struct Line: Equatable {
    /// The top-level key it is under (or is).
    let key: String
    /// The path below ``key``; empty for a top-level line.
    let rest: PropertyListPath
    /// Where its value is.
    var path: PropertyListPath { [.key(key)] + rest }
    /// The value's text, e.g. `Columns` or `[0]`.
    var label: String { rest.last?.description ?? key }
    /// 0 for a top-level key.
    var depth: Int { rest.count }
  }

  /// The lines, top to bottom.
  let lines: [Line]

  /// Lays out `root` with the containers at `expanded` open.
  init(root: [String: Any], expanded: Set<PropertyListPath>) {
    // One line per top-level key, sorted in place: not a sorted copy of the keys beside lines
    // appended one by one (at a million keys, 16 MB more and the array's doublings at the open's
    // memory peak). Keys with nothing open below them take one line each, without a path.
    var keyLines = root.keys.map { Line(key: $0, rest: []) }
    keyLines.sort { $0.key < $1.key }
    let openKeys = Set(
      expanded.compactMap { path -> String? in
        guard case .key(let key)? = path.first else { return nil }
        return key
      })
    guard !openKeys.isEmpty else {
      lines = keyLines
      return
    }
    var lines: [Line] = []
    func add(_ value: Any, under key: String, at rest: PropertyListPath) {
      lines.append(Line(key: key, rest: rest))
      guard expanded.contains([.key(key)] + rest) else { return }
      for (component, child) in Self.children(of: value) {
        add(child, under: key, at: rest + [component])
      }
    }
    for line in keyLines {
      if openKeys.contains(line.key) {
        add(root[line.key] as Any, under: line.key, at: [])
      } else {
        lines.append(line)
      }
    }
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
