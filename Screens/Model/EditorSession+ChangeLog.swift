import Foundation
import ObservableDefaultsCore

/// The change log: recording what sources report, and the keys of its view (`L`).
extension EditorSession {
  /// Adds a change `source` reported to the log, the per-key counters and the suite's history.
  func record(_ change: SeenChange, from source: any RowSource, at time: Date = Date()) {
    let identity = ObjectIdentifier(source)
    let index = sources.firstIndex { ObjectIdentifier($0) == identity } ?? state.sourceIndex
    changeLog.append(
      ChangeEntry(
        time: time, source: identity, sourceTitle: source.title, sourceIndex: index,
        change: change))
    observersTold[change.key, default: 0] += change.observersTold
    if let suite = source.suiteName, !Self.writerRecorded(change, in: source) {
      // The history is a record for later: a suite whose history cannot be written is still
      // edited (the log view has the change).
      try? history?.append(
        ChangeHistory.Entry(
          time: time, key: change.key, old: ChangeHistory.text(of: change.old),
          new: ChangeHistory.text(of: change.new), origin: change.origin),
        suite: suite)
    }
  }

  /// Whether the writer of `change` put it in the suite's history already: this package's
  /// writers record what they write to a suite file (``ChangeHistory/record(_:suite:)``),
  /// this editor's keys and the program showing it included; the editor records the rest
  /// (hand edits, administrators, other devices, changes of a cloud store).
  private static func writerRecorded(_ change: SeenChange, in source: any RowSource) -> Bool {
    guard source.suiteFile != nil else { return false }
    switch change.writer {
    case .thisProcess, .program, .reset, .migration: return true
    case .unmarkedWrite, .device, .administrator, .unknown: return false
    }
  }

  /// Records the changes `source` reports from now on (when it reports any).
  func recordChanges(of source: any RowSource, post: @escaping MainJobPoster) {
    guard let reporting = source as? any ChangeReportingSource else { return }
    reporting.reportChange = { [weak self, weak reporting] change in
      guard let self, let reporting else { return }
      record(change, from: reporting)
    }
    reporting.startReporting(post: post)
  }

  /// The entries the log view lists now.
  func changeLogEntries(key: String?) -> [ChangeEntry] {
    changeLog.newestFirst(key: key)
  }

  /// A key in the change log view.
  func handleChangeLog(_ key: KeyPress, selected: Int, filter: String?) -> Damage {
    let entries = changeLogEntries(key: filter)
    let last = max(0, entries.count - 1)
    switch key {
    case .up, .character("k"):
      state.mode = .changeLog(selected: max(0, selected - 1), key: filter)
    case .down, .character("j"):
      state.mode = .changeLog(selected: min(last, selected + 1), key: filter)
    case .character("f"):
      state.mode = .changeLog(selected: 0, key: filter == nil ? focusedRow?.key : nil)
    case .enter:
      guard entries.indices.contains(selected) else { break }
      return jump(to: entries[selected])
    case .character("u"):
      guard entries.indices.contains(selected) else { break }
      undo(entries[selected])
    case .escape, .character("q"), .character("L"):
      state.mode = .browsing
    default:
      break
    }
    return Damage(layout: true)
  }

  /// Closes the log and puts the focus on the row of `entry`'s key.
  private func jump(to entry: ChangeEntry) -> Damage {
    state.mode = .browsing
    state.message = nil
    guard let index = sources.firstIndex(where: { ObjectIdentifier($0) == entry.source }) else {
      state.message = .init(text: "\(entry.sourceTitle) is no longer listed", isError: true)
      return Damage(layout: true)
    }
    state.sourceIndex = index
    state.pane = .rows
    state.rowIndex = 0
    refocus(onRowKeyed: entry.change.key)
    return Damage(layout: true, focusPlaced: true)
  }

  /// Stores the value `entry`'s key had before that change.
  private func undo(_ entry: ChangeEntry) {
    guard !isReadOnly else {
      state.message = .init(text: "Read-only: nothing is changed", isError: true)
      return
    }
    guard let source = sources.first(where: { ObjectIdentifier($0) == entry.source }) else {
      state.message = .init(text: "\(entry.sourceTitle) is no longer listed", isError: true)
      return
    }
    let key = entry.change.key
    let old = entry.change.old
    do {
      if let editable = source as? any KeyEditingRowSource {
        try editable.store([PropertyListKey(key): old])
      } else if let index = (0..<source.rowCount).first(where: { source.row(at: $0).key == key }) {
        if case .storedUnder? = source.snapshot(at: index) {
          try source.restore(.storedUnder(key: key, value: old), at: index)
        } else {
          try source.restore(old.map { .stored($0) } ?? .defaultValue, at: index)
        }
      } else {
        throw RowSourceError.unsupported("\(source.title) has no row for \(key)")
      }
      state.message = .init(
        text: "\(key) is \(SeenChange.text(of: old)) again (the change at "
          + ChangeHistory.clockTime(entry.time) + " undone)", isError: false)
    } catch {
      state.message = .init(text: "Could not undo: \(error)", isError: true)
    }
  }

  /// Gives the changes seen since the last frame what that frame did (see ``Downstream``); with
  /// the counters of `c` shown, the status line says it.
  func completeChanges(rowsRedrawn: Int?, bytesWritten: Int?) {
    let waiting = changeLog.waitingEntries
    guard !waiting.isEmpty else { return }
    let shown = currentSource.map(ObjectIdentifier.init)
    let isShown = waiting.contains { $0.source == shown }
    let downstream = Downstream(
      keysChanged: waiting.count,
      observersTold: waiting.map(\.change.observersTold).max() ?? 0,
      rowsRedrawn: isShown ? rowsRedrawn : 0, rowCount: currentSource?.rowCount ?? 0,
      isShown: isShown, bytesWritten: bytesWritten)
    guard let newest = changeLog.complete(downstream), state.showsRedrawCounts,
      state.mode == .browsing
    else { return }
    state.message = .init(text: downstream.text(key: newest.change.key), isError: false)
  }
}
