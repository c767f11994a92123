/// A ``RowSource`` whose rows form a tree: a row holding a dictionary or an array opens and
/// closes to show its children below it.
@MainActor
protocol ExpandableRowSource: RowSource {
  /// Opens or closes the container at row `index`.
  ///
  /// - Returns: true when the rows changed (the row was a container), false for a leaf.
  func toggleExpansion(at index: Int) -> Bool
}
