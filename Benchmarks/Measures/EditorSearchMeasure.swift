import Foundation

/// The editor stays responsive while `/` searches a large suite (issue 38): the time from a key
/// press to the screen with a search running against the same with none, and how soon a
/// search's first match and its end are on the screen. The editor is the public
/// `SettingsEditor` run by a worker process on a pseudo-terminal, as in ``EditorMeasure``.
struct EditorSearchMeasure {
  let workspace: Workspace
  let runs: Int
  /// The suites searched: 100,000 and 1,000,000 keys.
  static let sizes = [100_000, 1_000_000]
  /// How long each key waits after the one before, so that the search that key started runs.
  static let pause: useconds_t = 20_000

  func run(into table: ResultTable) {
    for keys in Self.sizes {
      let suite = "bench-search-\(keys)"
      EditorMeasure.writeSuite(suite, keys: keys, valueLength: 20, in: workspace)
      let label = keys == 100_000 ? "100,000" : "1,000,000"
      let idle = keyLatencies(suite: suite, searching: false)
      let searching = keyLatencies(suite: suite, searching: true)
      table.add(
        ResultRow(
          measure: "Editor, \(label)-key suite: key press → screen while a search runs",
          samples: searching, unit: .milliseconds, baseline: ("no search", idle),
          target: Target(text: "≤ 50 ms", isMet: searching.median <= 0.05)))
      let (first, whole) = searchTimes(suite: suite, lastKey: EditorMeasure.key(keys - 1))
      table.add(
        ResultRow(
          measure: "…a search's first match on the screen (from the top)",
          samples: first, unit: .milliseconds,
          target: Target(text: "≤ 100 ms", isMet: first.median <= 0.1)))
      table.add(
        ResultRow(
          measure: "…a search for the last key, to its end on the screen (every key looked at)",
          samples: whole, unit: .milliseconds))
    }
  }

  /// Key → screen times of `runs` keys: with `searching`, characters typed into the search
  /// field (each starts a search over every key that matches none, which the next key stops);
  /// without, `j` and `k` moving the focus.
  private func keyLatencies(suite: String, searching: Bool) -> Samples {
    let session = EditorMeasure.EditorSession(suite: suite, workspace: workspace)
    guard session.firstPaint(timeout: 60) != nil else { abort("\(suite): no first paint") }
    if searching {
      session.terminal.type("/z")
      session.terminal.readUntilQuiet(0.05)
    }
    var latencies: [Double] = []
    for index in 0...runs {  // the first warms up
      usleep(Self.pause)
      // Characters none of the keys or values hold (`key-000001`, `value 1 xxx…`).
      let key =
        searching ? (index.isMultiple(of: 2) ? "q" : "w") : (index.isMultiple(of: 2) ? "j" : "k")
      let offset = session.terminal.received.count
      let pressed = monotonicNanoseconds()
      session.terminal.type(key)
      guard let shown = session.terminal.read(from: offset, until: searching ? key : "", timeout: 5)
      else { abort("\(suite): key \(key) not on the screen within 5 s") }
      if index > 0 { latencies.append(Double(shown - pressed) / 1e9) }
    }
    session.terminal.type("\u{1B}")
    _ = session.quit()
    return Samples(latencies)
  }

  /// The time from typing a query to its first match on the screen (the sixth key, found after
  /// six rows), and to the end of a search for `lastKey` (found last: every key looked at). The
  /// queries are typed in capitals (the search ignores case), so that the key's text reaches the
  /// terminal only in its row, when the focus gets there.
  private func searchTimes(suite: String, lastKey: String) -> (first: Samples, whole: Samples) {
    let session = EditorMeasure.EditorSession(suite: suite, workspace: workspace)
    guard session.firstPaint(timeout: 60) != nil else { abort("\(suite): no first paint") }
    var first: [Double] = []
    var whole: [Double] = []
    for index in 0...runs {
      for target in [EditorMeasure.key(5), lastKey] {
        session.terminal.type("/")
        session.terminal.readUntilQuiet(0.05)
        let offset = session.terminal.received.count
        let typed = monotonicNanoseconds()
        session.terminal.type(target.uppercased())
        guard let shown = session.terminal.read(from: offset, until: target, timeout: 60) else {
          abort("\(suite): the search for \(target) showed it not within 60 s")
        }
        if index > 0 {
          let seconds = Double(shown - typed) / 1e9
          if target == lastKey { whole.append(seconds) } else { first.append(seconds) }
        }
        session.terminal.type("\u{1B}")
        session.terminal.readUntilQuiet(0.1)
      }
    }
    _ = session.quit()
    return (Samples(first), Samples(whole))
  }
}
