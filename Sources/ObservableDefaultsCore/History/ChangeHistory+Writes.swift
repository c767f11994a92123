package import Foundation

/// The history of the writes this package makes to suite files.
extension ChangeHistory {
  /// One key's change as a write makes it: the value on disk before (nil: not stored) and the
  /// value written (nil: removed).
  package struct Write {
    package var key: PropertyListKey
    package var old: Any?
    package var new: Any?
  }

  /// The history a write to the file at `url` goes to, and the suite it is of: the user's
  /// history (``user``) for a suite file of the preferences folder (`<suite>.plist` in
  /// ``PreferencesDirectory/url``); nil for any other file, or when the history is off.
  package static func ofSuiteFile(at url: URL) -> (history: ChangeHistory, suite: String)? {
    guard url.pathExtension == "plist", let history = user else { return nil }
    let folder = PreferencesDirectory.url(
      environment: ProcessEnvironment.values(of: ["XDG_CONFIG_HOME", "HOME"]))
    guard
      url.deletingLastPathComponent().standardizedFileURL.path
        == folder.standardizedFileURL.path
    else { return nil }
    return (history, url.deletingPathExtension().lastPathComponent)
  }

  /// Appends `writes`, just made to the file of `suite` by this process, to the suite's
  /// history, as made now by this program (its name and process id, as other processes see it:
  /// ``DefaultsChange/Writer/program(name:processID:)``), followed by `reason` when given
  /// (`myapp (pid 4711), migration`). A failure to record is ignored (the history is a record
  /// for later: a write never fails for it).
  package func record(_ writes: [Write], suite: String, reason: String? = nil) {
    guard !writes.isEmpty else { return }
    let program = DefaultsChange.Writer.program(
      name: ProcessInfo.processInfo.processName,
      processID: ProcessInfo.processInfo.processIdentifier
    ).description
    let origin = reason.map { "\(program), \($0)" } ?? program
    let time = Date()
    // Newest last, made from the last: of a write whose lines hold more than ``maximumBytes``,
    // only those the append's trim can keep are made (it keeps the newest half of the file,
    // which then lies in them). A line is at least its fields' raw text, 4 tabs, a line feed
    // and a 20-character time, so the lines made hold more than ``maximumBytes`` when these
    // counts do (an `import` of 100,000 keys formatted all of its lines, to keep 1,500).
    var entries: [Entry] = []
    var bytes = 0
    for index in PropertyListKey.order(of: writes.map(\.key)).reversed() {
      guard bytes <= Self.maximumBytes else { break }
      let write = writes[index]
      let entry = Entry(
        time: time, key: write.key.string, old: Self.text(of: write.old),
        new: Self.text(of: write.new), origin: origin)
      bytes += entry.key.utf8.count + entry.old.utf8.count + entry.new.utf8.count
      bytes += origin.utf8.count + 25
      entries.append(entry)
    }
    entries.reverse()
    try? append(entries, suite: suite)
  }
}
