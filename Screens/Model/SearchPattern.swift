/// What `/` looks for: text compared without regard to case, with no locale.
///
/// Foundation's `localizedCaseInsensitiveContains` makes a locale on each call, which made a
/// search of a million keys take most of a minute. An ASCII query (the usual case: keys are
/// ASCII) is compared byte by byte with the ASCII letters folded, on the UTF-8 of the text as
/// it is stored; any other query is compared with both sides lowercased (Unicode's default
/// case mapping, the same in every locale).
struct SearchPattern: Equatable {
  /// The query as typed.
  let text: String
  /// The query's UTF-8 with ASCII letters lowercased, when the query is ASCII.
  private let asciiFolded: [UInt8]?
  /// The query lowercased, for a query that is not ASCII.
  private let lowercased: String

  init(_ text: String) {
    self.text = text
    let bytes = Array(text.utf8)
    asciiFolded = bytes.allSatisfy { $0 < 0x80 } ? bytes.map(Self.fold) : nil
    lowercased = text.lowercased()
  }

  /// Whether `candidate` contains the query, ignoring case; an empty query matches nothing.
  func matches(_ candidate: String) -> Bool {
    guard !text.isEmpty else { return false }
    guard let needle = asciiFolded else { return candidate.lowercased().contains(lowercased) }
    return candidate.utf8.withContiguousStorageIfAvailable { Self.contains(needle, in: $0) }
      ?? Self.contains(needle, in: Array(candidate.utf8))
  }

  /// Whether `haystack` holds `needle` (already folded), folding ASCII letters of `haystack`.
  private static func contains<Bytes: RandomAccessCollection<UInt8>>(
    _ needle: [UInt8], in haystack: Bytes
  ) -> Bool where Bytes.Index == Int {
    let count = needle.count
    guard haystack.count >= count else { return false }
    let first = needle[0]
    let start = haystack.startIndex
    for offset in 0...(haystack.count - count)
    where fold(haystack[start + offset]) == first {
      var matched = 1
      while matched < count, fold(haystack[start + offset + matched]) == needle[matched] {
        matched += 1
      }
      if matched == count { return true }
    }
    return false
  }

  /// `byte` with an ASCII capital letter made small.
  private static func fold(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
  }
}
