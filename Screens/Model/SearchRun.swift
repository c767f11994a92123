/// One search through every source's rows, a slice at a time, so that keys are read between
/// slices: the editor's loop gives it a few milliseconds per turn, and the next key typed in
/// the search field replaces it (the old one stops where it was).
///
/// It looks from the row focused when `/` was pressed to the end of the last source, then from
/// the first source's first row back to that row: the first match it finds is the one the
/// focus goes to.
@MainActor
struct SearchRun {
  /// What is looked for.
  let pattern: SearchPattern
  /// Where the focus was when the search began.
  let origin: EditorState.Focus
  /// The next row to look at; nil once every row was looked at.
  private(set) var next: EditorState.Focus?
  /// Whether the look went past the last source and started again at the first.
  private var wrapped = false
  /// The matches at or after ``origin``, in order.
  private var matchesFromOrigin: [EditorState.Focus] = []
  /// The matches before ``origin``, in order.
  private var matchesBeforeOrigin: [EditorState.Focus] = []
  /// How many rows were looked at.
  private(set) var rowsLookedAt = 0

  init(pattern: SearchPattern, origin: EditorState.Focus) {
    self.pattern = pattern
    self.origin = origin
    next = origin
  }

  /// Whether every row was looked at.
  var isFinished: Bool { next == nil }

  /// The matches found so far, in row order.
  var matches: [EditorState.Focus] { matchesBeforeOrigin + matchesFromOrigin }

  /// The first match found: the one at or after the origin, else the first before it.
  var firstMatch: EditorState.Focus? { matchesFromOrigin.first ?? matchesBeforeOrigin.first }

  /// Looks at rows of `sources` until `shouldStop` says so (asked every few hundred rows) or
  /// every row was looked at.
  mutating func advance(over sources: [any RowSource], until shouldStop: () -> Bool) {
    var sinceAsked = 0
    while let position = next {
      if sinceAsked == Self.rowsBetweenChecks {
        guard !shouldStop() else { return }
        sinceAsked = 0
      }
      sinceAsked += 1
      guard sources.indices.contains(position.source) else {
        next = wrapAround(sources: sources.count)
        continue
      }
      let source = sources[position.source]
      guard position.row < source.rowCount, !isPastEnd(position) else {
        next = isPastEnd(position) ? nil : nextSource(after: position, sources: sources.count)
        continue
      }
      rowsLookedAt += 1
      if source.rowMatches(pattern, at: position.row) {
        if wrapped {
          matchesBeforeOrigin.append(position)
        } else {
          matchesFromOrigin.append(position)
        }
      }
      next = EditorState.Focus(source: position.source, row: position.row + 1)
    }
  }

  /// How many rows are looked at between two questions to `shouldStop`.
  static let rowsBetweenChecks = 256

  /// Whether `position` is where the look started, reached again after wrapping.
  private func isPastEnd(_ position: EditorState.Focus) -> Bool {
    wrapped && (position.source, position.row) >= (origin.source, origin.row)
  }

  private mutating func nextSource(after position: EditorState.Focus, sources: Int)
    -> EditorState.Focus?
  {
    position.source + 1 < sources
      ? EditorState.Focus(source: position.source + 1, row: 0) : wrapAround(sources: sources)
  }

  private mutating func wrapAround(sources: Int) -> EditorState.Focus? {
    guard !wrapped, sources > 0 else { return nil }
    wrapped = true
    return EditorState.Focus(source: 0, row: 0)
  }
}
