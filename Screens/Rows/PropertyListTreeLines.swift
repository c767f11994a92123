import ObservableDefaultsCore

/// The visible lines of a property-list tree: every top-level key, and the children of each open
/// container below it (dictionary keys sorted, array elements in order).
///
/// Kept as the sorted top-level keys and, for each key with something open below it, the paths
/// of the lines below it; a line is made when asked for. A suite of a million keys holds its
/// keys once (16 MB, sorted in place), not a line of 24 bytes for each beside a sorted copy of
/// the keys.
struct PropertyListTreeLines: RandomAccessCollection, Equatable {
  /// One visible line.
  struct Line: Equatable {
    /// The top-level key it is under (or is).
    let key: PropertyListKey
    /// The path below ``key``; empty for a top-level line.
    let rest: PropertyListPath
    /// Where its value is.
    var path: PropertyListPath { [.key(key.string)] + rest }
    /// The value's text, e.g. `Columns` or `[0]`.
    var label: String { rest.last?.description ?? key.string }
    /// 0 for a top-level key.
    var depth: Int { rest.count }
  }

  /// The lines below one top-level key, and where that key's line is.
  private struct Below: Equatable {
    /// The key's index in `keys`.
    var keyIndex: Int
    /// The key's line number.
    var line: Int
    /// The paths below the key, in display order.
    let rests: [PropertyListPath]
  }

  /// The top-level keys, sorted by their Unicode scalars (keys that differ only in Unicode
  /// normalization are two lines).
  private var keys: [PropertyListKey]
  /// The keys with lines below them, in key order.
  private var below: [Below]
  /// How many top-level keys were put in place to make these lines and the lines they replaced:
  /// every key for each layout, one for each key ``updating(adding:removing:)`` adds or removes
  /// (counted by the tests; not part of equality).
  var keysPlaced: Int

  /// Lays out `root` with the containers at `expanded` open.
  init(root: [PropertyListKey: Any], expanded: Set<PropertyListPath>) {
    var keys = Array(root.keys)
    keys.sortByScalars()
    self.init(sortedKeys: keys, expanded: expanded, value: { root[$0] })
  }

  /// Lays out the top-level `keys` (sorted by their Unicode scalars), whose values `value` reads,
  /// with the containers at `expanded` open: only the values of open keys are read.
  init(
    sortedKeys keys: [PropertyListKey], expanded: Set<PropertyListPath>,
    value: (PropertyListKey) -> Any?
  ) {
    self.keys = keys
    keysPlaced = keys.count
    var below: [Below] = []
    var linesBelow = 0
    // Only the keys with something open below them are looked up (a binary search each).
    let openKeys = Set(
      expanded.compactMap { path -> PropertyListKey? in
        guard case .key(let key)? = path.first else { return nil }
        return PropertyListKey(key)
      })
    for key in openKeys.sorted() {
      let keyIndex = keys.partitioningIndex { $0 >= key }
      guard keyIndex < keys.count, keys[keyIndex] == key else { continue }
      var rests: [PropertyListPath] = []
      func add(_ value: Any, at rest: PropertyListPath) {
        guard expanded.contains([.key(key.string)] + rest) else { return }
        for (component, child) in Self.children(of: value) {
          rests.append(rest + [component])
          add(child, at: rest + [component])
        }
      }
      add(value(key) as Any, at: [])
      guard !rests.isEmpty else { continue }
      below.append(Below(keyIndex: keyIndex, line: keyIndex + linesBelow, rests: rests))
      linesBelow += rests.count
    }
    self.below = below
  }

  /// These lines with the top-level keys `added` put in their place and `removed` taken out,
  /// none of them open (nothing below it): a binary search and a move of the keys after it for
  /// each, instead of sorting every key again.
  func updating(adding added: [PropertyListKey], removing removed: [PropertyListKey])
    -> PropertyListTreeLines
  {
    var lines = self
    for key in removed {
      let index = lines.keys.partitioningIndex { $0 >= key }
      guard index < lines.keys.count, lines.keys[index] == key else { continue }
      lines.keys.remove(at: index)
      lines.moveBelow(from: index, by: -1)
    }
    for key in added {
      let index = lines.keys.partitioningIndex { $0 >= key }
      guard index == lines.keys.count || lines.keys[index] != key else { continue }
      lines.keys.insert(key, at: index)
      lines.moveBelow(from: index, by: 1)
    }
    lines.keysPlaced += added.count + removed.count
    return lines
  }

  /// The top-level keys, sorted by their Unicode scalars.
  var topLevelKeys: [PropertyListKey] { keys }

  /// Whether exactly `key` is a top-level key of these lines (a binary search).
  func contains(key: PropertyListKey) -> Bool {
    let index = keys.partitioningIndex { $0 >= key }
    return index < keys.count && keys[index] == key
  }

  /// Moves the keys with lines below them from key index `index` on by `offset` keys.
  private mutating func moveBelow(from index: Int, by offset: Int) {
    for open in below.indices where below[open].keyIndex >= index {
      below[open].keyIndex += offset
      below[open].line += offset
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keys == rhs.keys && lhs.below == rhs.below
  }

  var startIndex: Int { 0 }

  var endIndex: Int {
    keys.count + (below.last.map { $0.line - $0.keyIndex + $0.rests.count } ?? 0)
  }

  subscript(line: Int) -> Line {
    // The last key with lines below it whose line is at or above this one.
    let following = below.partitioningIndex { $0.line > line }
    guard following > 0 else { return Line(key: keys[line], rest: []) }
    let open = below[following - 1]
    let offset = line - open.line
    if offset >= 1, offset <= open.rests.count {
      return Line(key: keys[open.keyIndex], rest: open.rests[offset - 1])
    }
    let linesBelowBefore = open.line - open.keyIndex
    return Line(
      key: keys[line - linesBelowBefore - (offset > 0 ? open.rests.count : 0)], rest: [])
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
