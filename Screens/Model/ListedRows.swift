/// The indices of the shown source's rows that are listed, in screen order (ascending): all of
/// them, or the modified ones under the `m` filter.
///
/// All rows are kept as their count alone: a first paint of a 1,000,000-key suite built an array
/// of every index and a dictionary of every index's position (60 MB at the memory peak of the
/// open), and each arrow key an array of every index.
struct ListedRows: RandomAccessCollection {
  private enum Rows {
    /// Rows `0..<count`.
    case all(count: Int)
    /// These rows, ascending.
    case some([Int])
  }

  private let rows: Rows

  /// Every row of a source of `count` rows.
  static func all(_ count: Int) -> ListedRows { ListedRows(rows: .all(count: count)) }

  /// The rows of `0..<count` for which `isListed` is true.
  static func filtered(_ count: Int, _ isListed: (Int) -> Bool) -> ListedRows {
    ListedRows(rows: .some((0..<count).filter(isListed)))
  }

  var startIndex: Int { 0 }

  var endIndex: Int {
    switch rows {
    case .all(let count): count
    case .some(let indices): indices.count
    }
  }

  /// The row at screen position `position`.
  subscript(position: Int) -> Int {
    switch rows {
    case .all: position
    case .some(let indices): indices[position]
    }
  }

  /// The screen position of row `row`, or nil when it is not listed.
  func position(of row: Int) -> Int? {
    switch rows {
    case .all(let count):
      return (0..<count).contains(row) ? row : nil
    case .some(let indices):
      let position = indices.partitioningIndex { $0 >= row }
      return position < indices.count && indices[position] == row ? position : nil
    }
  }

  /// The listed rows below `rowCount` (rows a source no longer has are not listed).
  func limited(to rowCount: Int) -> ListedRows {
    switch rows {
    case .all(let count): .all(Swift.min(count, rowCount))
    case .some(let indices): ListedRows(rows: .some(indices.filter { $0 < rowCount }))
    }
  }
}
