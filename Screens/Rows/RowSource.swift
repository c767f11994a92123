import ObservableDefaults

/// Where the rows of one entry in the objects pane come from: a settings object, a raw suite,
/// or a property-list file.
///
/// The editor reads ``rowCount`` and ``row(at:)`` inside Observation tracking, so a source
/// whose reads go through `Observable` state gets its rows redrawn when that state changes,
/// one row per changed property.
@MainActor
protocol RowSource: AnyObject {
  /// The name in the objects pane.
  var title: String { get }
  /// Where the values live (a file path), shown in the header.
  var location: String { get }
  /// What kind of source this is, shown as a badge.
  var kind: RowSourceKind { get }
  /// The suite of the preferences folder the rows show, if they show one.
  var suiteName: String? { get }
  /// The number of rows.
  var rowCount: Int { get }
  /// The row at `index`, read now.
  func row(at index: Int) -> PropertyRow
  /// Stores `value`, typed as the row's ``RowEditing`` promised, for the row at `index`.
  func setValue(_ value: Any, at index: Int) throws
  /// Why the source cannot show its values (a suite file that does not parse), if it cannot.
  var problem: String? { get }
  /// Why the file the values come from cannot be read now (it stopped parsing), nil while it
  /// reads. The header says `UNREADABLE`, the rows keep the last values read, marked stale, and
  /// every change is refused; the file is never written meanwhile.
  var unreadableReason: String? { get }
  /// The suite whose file the values come from, when they come from one: the editor wakes when
  /// it stops reading or reads again (``unreadableReason``), instead of checking on a timer.
  var suiteFile: PropertyListDefaults? { get }
  /// Whether the file's values were ever read: false while ``unreadableReason`` is set for a
  /// file that has not parsed since the editor opened it (no value of it is shown), true when
  /// the rows keep the values of its last good version.
  var hasReadValues: Bool { get }
  /// A short state for the header, such as a cloud store's sync state; nil when none.
  var state: String? { get }
  /// Removes the stored value of the row at `index` so it reads its default again.
  func resetValue(at index: Int) throws
  /// Whether ``resetValue(at:)`` leads back to a default; false when it removes the key and the
  /// row with it (a raw suite has no defaults).
  var hasDefaults: Bool { get }
  /// What the row at `index` holds now, for undo; nil when the source cannot restore it.
  func snapshot(at index: Int) -> RowSnapshot?
  /// Puts back what ``snapshot(at:)`` took.
  func restore(_ snapshot: RowSnapshot, at index: Int) throws
  /// Whether the row at `index` shows `pattern` in its name, key, description or value. A
  /// source of many rows answers from its keys and values without building the row.
  func rowMatches(_ pattern: SearchPattern, at index: Int) -> Bool
}

extension RowSource {
  var suiteName: String? { nil }

  var problem: String? { nil }

  var unreadableReason: String? { suiteFile?.unreadableReason }

  var suiteFile: PropertyListDefaults? { nil }

  var hasReadValues: Bool { true }

  var state: String? { nil }

  var hasDefaults: Bool { true }

  func resetValue(at index: Int) throws {
    throw RowSourceError.unsupported("\(title) has no defaults to reset to")
  }

  func snapshot(at index: Int) -> RowSnapshot? { nil }

  func restore(_ snapshot: RowSnapshot, at index: Int) throws {
    throw RowSourceError.unsupported("\(title) cannot undo")
  }

  func rowMatches(_ pattern: SearchPattern, at index: Int) -> Bool {
    let row = row(at: index)
    return [row.name, row.key ?? "", row.summary ?? "", row.value].contains(where: pattern.matches)
  }
}

/// A row's value as its source stores it, kept to undo a change.
enum RowSnapshot {
  /// Nothing was stored: the row showed its default.
  case defaultValue
  /// This stored form (`nil`: an empty optional).
  case stored(Any?)
  /// The value stored under a raw key (`nil`: the key was absent). Sources whose rows come and
  /// go with their keys (suites) restore by key, since the row's index may have moved.
  case storedUnder(key: String, value: Any?)
}

/// An operation a source does not offer.
enum RowSourceError: Error, CustomStringConvertible {
  case unsupported(String)

  var description: String {
    switch self {
    case .unsupported(let reason): reason
    }
  }
}

/// The kinds of ``RowSource``.
enum RowSourceKind: String, Sendable {
  /// A settings object of the program (made observable and persistent by the macros).
  case object
  /// A settings object of the program on the cloud key-value store (`@ObservableCloud`).
  case cloud
  /// A suite file in the preferences folder, edited key by key.
  case suite
  /// A property-list file opened by path, read-only.
  case file
}

/// Runs a job on the editor's loop thread; callable from any thread.
typealias MainJobPoster = @Sendable (_ job: @escaping @MainActor @Sendable () -> Void) -> Void

/// A ``RowSource`` whose values can change behind the editor's back (another process writes its
/// file), and which reports that through Observation once watching starts.
@MainActor
protocol LiveRowSource: RowSource {
  /// Starts following outside changes; callbacks from other threads reach the rows through
  /// `post`, so every observable mutation happens on the loop thread.
  func startWatching(post: @escaping MainJobPoster)
}

/// A ``RowSource`` read from a file that `r` reads again, for a file changed on disk by another
/// writer (after a save was refused because of it).
@MainActor
protocol ReloadableRowSource: RowSource {
  /// Shows the file as it is on disk now; unsaved edits are dropped.
  func reload() throws
}
