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
  /// The number of rows.
  var rowCount: Int { get }
  /// The row at `index`, read now.
  func row(at index: Int) -> PropertyRow
  /// Stores `value`, typed as the row's ``RowEditing`` promised, for the row at `index`.
  func setValue(_ value: Any, at index: Int) throws
}

/// The kinds of ``RowSource``.
enum RowSourceKind: String, Sendable {
  /// A settings object of the program (made observable and persistent by the macros).
  case object
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
