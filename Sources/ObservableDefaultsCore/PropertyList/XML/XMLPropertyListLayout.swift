/// Where the entries of an XML property list's top dictionary are in its text, by position: what
/// a flush needs to write changed entries into the text without scanning it first.
///
/// Kept with the entries of the version last read or written (``PropertyListEntries/layout``),
/// and used only on the bytes of that version (the flush checks them against the version's hash
/// after reading them under the lock: ``PropertyListFile/textIfStill(_:)``). Offsets are 32-bit: a file this package reads is below 256 MiB
/// (``FileContents/maximumSize``), and 8 bytes an entry are kept instead of 16.
struct XMLPropertyListLayout: Equatable {
  /// Where one entry's value element is: `start..<end` in the file's bytes.
  struct Span: Equatable {
    let start: UInt32
    let end: UInt32

    init(_ range: Range<Int>) {
      start = UInt32(range.lowerBound)
      end = UInt32(range.upperBound)
    }

    var range: Range<Int> { Int(start)..<Int(end) }
  }

  /// Where the top dictionary's contents begin (after `<dict>`).
  var contentsStart: Int
  /// Each entry's value element, by position.
  var values: [Span]

  /// The layout of a scanned top dictionary.
  init(_ dictionary: XMLPropertyListEntries.Dictionary) {
    contentsStart = dictionary.contents.lowerBound
    values = dictionary.entries.map { Span($0.value) }
  }

  init(contentsStart: Int, values: [Span]) {
    self.contentsStart = contentsStart
    self.values = values
  }

  /// Whether this can be the layout of `entryCount` entries in a text of `count` bytes: a
  /// check of bounds only, for the layout kept with the version whose text is edited (the flush
  /// has checked the text against that version's hash).
  func describes(_ entryCount: Int, count: Int) -> Bool {
    values.count == entryCount && contentsStart <= count
      && values.last.map { Int($0.end) <= count } ?? true
  }

  /// The places of the entries after `edits` (sorted, not overlapping, each the value element
  /// of an entry replaced, or an entry removed with the white space before it): an entry
  /// replaced keeps its start and takes the new text's length, a removed one is left out, and
  /// each one after an edit moves by what the edits before it added or took.
  func moved(by edits: [XMLPropertyListEdit.Edit]) -> [Span] {
    var moved: [Span] = []
    moved.reserveCapacity(values.count)
    var (shift, next) = (0, 0)
    for span in values {
      while next < edits.count, edits[next].range.upperBound <= Int(span.start) {
        shift += edits[next].growth
        next += 1
      }
      let start = Int(span.start) + shift
      guard next < edits.count, edits[next].range.upperBound == Int(span.end) else {
        moved.append(Span(start..<(start + span.range.count)))
        continue
      }
      // An edit that ends where this entry ends: its value replaced, or the entry removed.
      if edits[next].range.lowerBound == Int(span.start) {
        moved.append(Span(start..<(start + edits[next].count)))
      }
    }
    return moved
  }
}
