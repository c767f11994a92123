package import Foundation

/// The history of a suite's changes on disk: one private file per suite that every writer of
/// this package appends the changes it writes to (``PropertyListFile/apply(_:)``: programs
/// through their settings objects and ``PropertyListDefaults``, the command-line verbs, the
/// editor), and the editor appends the changes it sees that no such writer recorded (hand
/// edits, other devices, administrators); `settings-editor log SUITE [KEY]` reads it.
///
/// The files are `$XDG_STATE_HOME/ObservableDefaults/history/<suite>.log` (else
/// `~/.local/state/…`, as the XDG Base Directory specification says for state: "actions
/// history"), mode 0600 in folders of mode 0700. Each is bounded: once a file is above
/// ``maximumBytes`` its oldest lines are dropped down to half of it. `OBSERVABLE_DEFAULTS_HISTORY=0`
/// turns the history off (nothing is written or read). Several processes append to one file
/// safely: each change is one `write(2)` of whole lines in append mode under a shared `flock`,
/// and a trim replaces the file under an exclusive one (see ``append(_:suite:)``).
///
/// One line per change, fields separated by tabs: the time in UTC (ISO 8601), the key, the old
/// and the new value on one line, who made it. Every field goes through ``TerminalText``, so no
/// tab, line break or terminal control is ever in a field, nor reaches a terminal that shows it.
package struct ChangeHistory: Sendable {
  /// One change in a history.
  package struct Entry: Equatable, Sendable {
    package var time: Date
    package var key: String
    /// The old and new values as one line of text each (`(none)`: not stored).
    package var old: String
    package var new: String
    /// Who made it, e.g. `myapp (pid 4711)`, `hand edit or other program`, `device 4711-1A2B3C4D`.
    package var origin: String

    /// An entry of the change of `key` from `old` to `new` (texts of ``ChangeHistory/text(of:)``)
    /// made at `time` by `origin`.
    package init(time: Date, key: String, old: String, new: String, origin: String) {
      self.time = time
      self.key = key
      self.old = old
      self.new = new
      self.origin = origin
    }
  }

  /// The largest a suite's history file grows: 256 KiB (about 3,000 changes). A file above it
  /// is cut to its newest half.
  package static let maximumBytes = 256 * 1024

  /// The longest text of a value in a line, in characters (a longer one ends with `…`): a 50 MB
  /// string costs its write no more than a short one.
  package static let maximumValueLength = 200

  /// The folder of the history files.
  package let folder: URL

  /// The history kept in `folder`.
  package init(folder: URL) {
    self.folder = folder
  }

  /// The user's history: `$XDG_STATE_HOME/ObservableDefaults/history` (an absolute
  /// `XDG_STATE_HOME`, else `~/.local/state`); nil when `OBSERVABLE_DEFAULTS_HISTORY` is `0`.
  package static var user: ChangeHistory? {
    user(environment: ProcessEnvironment.values(of: variables))
  }

  /// The environment variables ``user`` reads.
  private static let variables = ["OBSERVABLE_DEFAULTS_HISTORY", "XDG_STATE_HOME", "HOME"]

  /// ``user`` for `environment`.
  package static func user(environment: [String: String]) -> ChangeHistory? {
    guard environment["OBSERVABLE_DEFAULTS_HISTORY"] != "0" else { return nil }
    let state = HomeFolder.baseFolder(
      "XDG_STATE_HOME", fallback: ".local/state", environment: environment)
    return ChangeHistory(
      folder: state.appendingPathComponent("ObservableDefaults/history", isDirectory: true))
  }

  /// The file of `suite`.
  package func file(suite: String) -> URL {
    folder.appendingPathComponent(suite + ".log", isDirectory: false)
  }

  /// A stored value on one line (`(none)` when not stored), at most ``maximumValueLength``
  /// characters: the text of the editor's Value column (``ValueSummary``).
  package static func text(of value: Any?) -> String {
    guard let value else { return "(none)" }
    let text =
      if let string = value as? String {
        // Only the part kept is escaped.
        TerminalText.escaped(String(string.prefix(maximumValueLength + 1)))
      } else {
        ValueSummary(value).text
      }
    return text.count > maximumValueLength ? text.prefix(maximumValueLength - 1) + "…" : text
  }

  /// The changes in the history of `suite`, oldest first; with `key`, only that key's.
  /// A line that is not an entry is skipped.
  ///
  /// - Throws: The error of reading the file (none when there is no file).
  package func entries(suite: String, key: String? = nil) throws -> [Entry] {
    let url = file(suite: suite)
    guard FileManager.default.fileExists(atPath: url.path) else { return [] }
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    return text.split(separator: "\n").compactMap(Self.entry).filter {
      key == nil || $0.key == TerminalText.escaped(key ?? "")
    }
  }

  /// The lines of a history file that hold `entries`, in order. The time and origin fields,
  /// which all the entries of one write share, are made once for each run of entries that share
  /// them (an `import` of 20,000 keys formatted the time 20,000 times: a ninth of its
  /// instructions).
  static func lines(_ entries: [Entry]) -> String {
    var text = ""
    var (timeField, originField) = ("", "")
    var last: (time: Date, origin: String)?
    for entry in entries {
      if last?.time != entry.time || last?.origin != entry.origin {
        last = (entry.time, entry.origin)
        timeField = TerminalText.escaped(HistoryTimestamp.text(of: entry.time))
        originField = TerminalText.escaped(entry.origin)
      }
      text += timeField + "\t" + TerminalText.escaped(entry.key) + "\t"
      text += TerminalText.escaped(entry.old) + "\t" + TerminalText.escaped(entry.new) + "\t"
      text += originField + "\n"
    }
    return text
  }

  /// The entry of one line, nil when it is not one.
  private static func entry(_ line: Substring) -> Entry? {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 5, let time = try? timestampFormat.parse(fields[0]) else { return nil }
    return Entry(time: time, key: fields[1], old: fields[2], new: fields[3], origin: fields[4])
  }

  /// `2026-12-05T21:03:04Z` (``HistoryTimestamp`` writes it).
  private static let timestampFormat = Date.ISO8601FormatStyle()

  /// A change for people, one line: `2026-12-05 21:03:04  com.app  age: 1 → 2  (myapp (pid 4711))`,
  /// the time in the local time zone (`TZ`).
  package static func text(of entry: Entry, suite: String) -> String {
    "\(localTime(entry.time))  \(TerminalText.escaped(suite))  \(entry.key): \(entry.old) → "
      + "\(entry.new)  (\(entry.origin))"
  }

  /// `2026-12-05 21:03:04` in the local time zone.
  ///
  /// From the C library's local fields (``SystemClock/localFields(ofSecondsSince1970:)``), as
  /// ``HistoryTimestamp`` writes UTC: the format style's first use made Foundation's Gregorian
  /// calendar and loaded ICU's time-zone and locale data, 1.1–1.2 ms of the first line
  /// `settings-editor watch` printed, and of every editor's first change shown. Dates before
  /// 1600 and after 9999 (where Foundation's calendar counts Julian days, or the C library
  /// cannot go) are written by the style.
  package static func localTime(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    if abs(seconds) < 1e15, let fields = SystemClock.localFields(ofSecondsSince1970: Int(seconds)),
      (1600...9999).contains(fields.year)
    {
      return fields.dateText + " " + fields.clockText
    }
    let style = Date.VerbatimFormatStyle(
      format:
        "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits)",
      timeZone: .current, calendar: Calendar(identifier: .gregorian))
    return style.format(date)
  }

  /// `21:03:04` in the local time zone.
  package static func clockTime(_ date: Date) -> String {
    String(localTime(date).suffix(8))
  }
}
