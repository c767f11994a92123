import Foundation

/// What one frame did after changes: how many keys changed, how many observers the library told,
/// how many rows the screen drew again, of how many, and the bytes sent to the terminal.
struct Downstream: Equatable {
  var keysChanged: Int
  var observersTold: Int
  /// Rows drawn again because their value changed; nil when the whole screen was drawn again.
  var rowsRedrawn: Int?
  /// The rows of the source the changes were in.
  var rowCount: Int
  /// Whether that source is the one shown.
  var isShown: Bool
  /// Bytes written to the terminal for the frame; nil when not known (not a terminal).
  var bytesWritten: Int?

  /// E.g. `age: 1 key changed → 2 observers told → 1 row redrawn of 10,000 (148 bytes written)`.
  func text(key: String) -> String {
    let keys = "\(keysChanged) key\(keysChanged == 1 ? "" : "s") changed"
    let told = "\(observersTold) observer\(observersTold == 1 ? "" : "s") told"
    let total = Self.grouped(rowCount)
    let rows: String
    if !isShown {
      rows = "not shown (0 rows redrawn)"
    } else if let rowsRedrawn {
      rows = "\(rowsRedrawn) row\(rowsRedrawn == 1 ? "" : "s") redrawn of \(total)"
    } else {
      rows = "screen redrawn (\(total) rows)"
    }
    let bytes = bytesWritten.map { " (\(Self.grouped($0)) bytes written)" } ?? ""
    return "\(key): \(keys) → \(told) → \(rows)\(bytes)"
  }

  /// `10,000`: thousands separated by commas, the same in every locale.
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
      result.append(digit)
    }
    return (number < 0 ? "-" : "") + result
  }
}

/// One change in the change log.
struct ChangeEntry {
  /// When the editor saw it.
  var time: Date
  /// The source it was seen in, its title, and its place in the objects pane then.
  var source: ObjectIdentifier
  var sourceTitle: String
  var sourceIndex: Int
  var change: SeenChange
  /// What the frame after it did; nil until that frame is drawn.
  var downstream: Downstream?
}

/// Every change seen since the editor started, newest first, at most ``capacity``.
struct ChangeLog {
  /// The most entries kept: 1,000 (older ones are dropped).
  static let capacity = 1_000

  /// Oldest first; read through ``newestFirst``.
  private var entries: [ChangeEntry] = []
  /// How many of the newest entries wait for the frame after them.
  private var waiting = 0

  /// Adds a change seen now.
  mutating func append(_ entry: ChangeEntry) {
    entries.append(entry)
    waiting += 1
    if entries.count > Self.capacity {
      entries.removeFirst(entries.count - Self.capacity)
      waiting = min(waiting, entries.count)
    }
  }

  /// The entries, newest first; with `key`, only those of that key.
  func newestFirst(key: String? = nil) -> [ChangeEntry] {
    entries.reversed().filter { key == nil || $0.change.key == key }
  }

  /// Whether changes wait for the frame after them.
  var hasWaiting: Bool { waiting > 0 }

  /// The changes that wait for the frame after them, oldest first.
  var waitingEntries: ArraySlice<ChangeEntry> { entries.suffix(waiting) }

  /// Gives each waiting change what the frame did; returns the newest of them.
  @discardableResult
  mutating func complete(_ downstream: Downstream) -> ChangeEntry? {
    guard waiting > 0 else { return nil }
    for index in entries.indices.suffix(waiting) { entries[index].downstream = downstream }
    waiting = 0
    return entries.last
  }

  /// The newest change of `key` in the source `source`, if one was seen.
  func latest(key: String, source: ObjectIdentifier) -> ChangeEntry? {
    entries.last { $0.change.key == key && $0.source == source }
  }
}
