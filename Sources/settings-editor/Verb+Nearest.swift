extension Verb {
  /// The verb a mistyped word most likely meant: the one at the smallest edit distance
  /// (insertions, deletions, substitutions and swaps of two neighbours), if that is at most 2 and
  /// less than half the word; nil when none is that close, or two are.
  static func nearest(to word: String) -> Verb? {
    let typed = Array(word.lowercased())
    let distances = allCases.map { ($0, editDistance(typed, Array($0.rawValue))) }
    guard let best = distances.map(\.1).min(), best <= 2, best * 2 < typed.count else {
      return nil
    }
    let closest = distances.filter { $0.1 == best }
    return closest.count == 1 ? closest[0].0 : nil
  }

  /// The optimal string alignment distance between `a` and `b`.
  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in stride(from: 1, through: a.count, by: 1) {
      for j in stride(from: 1, through: b.count, by: 1) {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = Swift.min(
          table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = Swift.min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}
