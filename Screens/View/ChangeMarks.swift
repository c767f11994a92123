/// Rows changed by someone else (another process, another object), marked for a moment.
struct ChangeMarks {
  /// How long a row stays marked.
  static let duration = Duration.seconds(2)

  private var until: [EditorScreen.RowID: ContinuousClock.Instant] = [:]

  /// Marks `row` from `now` on.
  mutating func mark(_ row: EditorScreen.RowID, at now: ContinuousClock.Instant) {
    until[row] = now + Self.duration
  }

  /// Whether `row` is marked at `now`.
  func isMarked(_ row: EditorScreen.RowID, at now: ContinuousClock.Instant) -> Bool {
    until[row].map { now < $0 } ?? false
  }

  /// Removes the marks that ran out by `now` and returns their rows (to draw them again).
  mutating func expire(at now: ContinuousClock.Instant) -> [EditorScreen.RowID] {
    let expired = until.filter { $0.value <= now }.map(\.key)
    for row in expired { until[row] = nil }
    return expired
  }

  /// When the next mark runs out, if any is left.
  var nextDeadline: ContinuousClock.Instant? { until.values.min() }
}
