extension RandomAccessCollection where Index == Int {
  /// The first position whose element `isAfter` holds for, in elements for which it is false
  /// up to some position and true from there on (a binary search: O(log n)).
  func partitioningIndex(where isAfter: (Element) -> Bool) -> Int {
    var (low, high) = (startIndex, endIndex)
    while low < high {
      let middle = (low + high) / 2
      if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
