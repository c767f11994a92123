import ObservableDefaultsCore

/// A ``RowSource`` that tells the editor of each change of a stored value it shows, with the
/// value before and who made it (the change log and the line of what happened downstream).
@MainActor
protocol ChangeReportingSource: RowSource {
  /// Called on the loop thread with each change seen; set by the editor.
  var reportChange: ((SeenChange) -> Void)? { get set }
  /// Starts following the changes to report, when the source does not follow them already
  /// (``LiveRowSource/startWatching(post:)``); callbacks reach the loop through `post`.
  func startReporting(post: @escaping MainJobPoster)
}

extension ChangeReportingSource {
  func startReporting(post: @escaping MainJobPoster) {}

  /// Reports the keys of `before` whose value is not `value(key)` now, made by `writer` (nil: a
  /// key typed in this editor, written without telling the source's own observer of `store`).
  func reportChanges(
    _ before: [String: Any?], now value: (String) -> Any?, writer: DefaultsChange.Writer?,
    store: any ObservableKeyValueStore
  ) {
    let observers = store.observerCount ?? 0
    reportChanges(
      before, now: value, writer: writer ?? .thisProcess, byEditor: writer == nil,
      observersTold: writer == nil ? max(0, observers - 1) : observers)
  }

  /// Reports the keys of `before` whose value is not `value(key)` now.
  func reportChanges(
    _ before: [String: Any?], now value: (String) -> Any?, writer: DefaultsChange.Writer,
    byEditor: Bool, observersTold: Int
  ) {
    guard let reportChange else { return }
    for (key, old) in before.sorted(by: { $0.key < $1.key }) {
      let new = value(key)
      guard !propertyListValuesEqual(old, new) else { continue }
      reportChange(
        SeenChange(
          key: key, old: old, new: new, writer: writer, byEditor: byEditor,
          observersTold: observersTold))
    }
  }
}
