import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// `settings-editor log SUITE [KEY]` and the history files it reads (``ChangeHistory``).
@Suite(.serialized) struct LogVerbTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  private var history: ChangeHistory { ChangeHistory(folder: editor.history) }

  /// 2025-12-05 21:03:04 UTC plus `seconds`.
  private func time(_ seconds: Int) -> Date {
    Date(timeIntervalSince1970: 1_764_968_584 + TimeInterval(seconds))
  }

  @Test func printsTheHistoryOldestFirstAndOneKeysAlone() throws {
    let entries = [
      ChangeHistory.Entry(
        time: time(0), key: "age", old: "(none)", new: "42", origin: "myapp (pid 4711)"),
      ChangeHistory.Entry(
        time: time(1), key: "name", old: "Ann", new: "\u{1b}[2Jgone\nnext", origin: "this editor"),
      ChangeHistory.Entry(
        time: time(62), key: "age", old: "42", new: "(none)", origin: "hand edit or other program"),
    ]
    for entry in entries { try history.append(entry, suite: "com.app") }
    let all = try editor.run("log", "com.app")
    #expect(all.status == 0)
    #expect(
      all.output == """
        2025-12-05 21:03:04  com.app  age: (none) → 42  (myapp (pid 4711))
        2025-12-05 21:03:05  com.app  name: Ann → \\u{1b}[2Jgone\\nnext  (this editor)
        2025-12-05 21:04:06  com.app  age: 42 → (none)  (hand edit or other program)

        """)
    #expect(
      try editor.run("log", "com.app", "age").output == """
        2025-12-05 21:03:04  com.app  age: (none) → 42  (myapp (pid 4711))
        2025-12-05 21:04:06  com.app  age: 42 → (none)  (hand edit or other program)

        """)
    let file = history.file(suite: "com.app")
    #expect(try permissions(of: file) == 0o600)
    #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)
    #expect(try editor.run("log", "com.other").output == "")
  }

  @Test func theWriteVerbsRecordTheirChanges() throws {
    let first = try editor.start(["write", "com.app", "age", "-int", "1"])
    #expect(first.finish().status == 0)
    let second = try editor.start(["write", "com.app", "age", "-int", "2"])
    #expect(second.finish().status == 0)
    let json = Data(#"{"name": "Ann"}"#.utf8)
    let importing = try editor.start(["import", "com.app", "-", "--json"], input: json)
    #expect(importing.finish().status == 0)
    let deleting = try editor.start(["delete", "com.app"])
    #expect(deleting.finish().status == 0)
    let lines = try history.entries(suite: "com.app").map {
      "\($0.key): \($0.old) → \($0.new) (\($0.origin))"
    }
    #expect(
      lines == [
        "age: (none) → 1 (settings-editor (pid \(first.processIdentifier)))",
        "age: 1 → 2 (settings-editor (pid \(second.processIdentifier)))",
        "age: 2 → (none) (settings-editor (pid \(importing.processIdentifier)))",
        "name: (none) → Ann (settings-editor (pid \(importing.processIdentifier)))",
        "name: Ann → (none) (settings-editor (pid \(deleting.processIdentifier)))",
      ])
  }

  @Test func aHistoryStaysWithinItsLimitKeepingTheNewest() throws {
    let entry = ChangeHistory.Entry(
      time: time(0), key: "counter", old: String(repeating: "x", count: 100), new: "y",
      origin: "this editor")
    for index in 0..<3_000 {
      var numbered = entry
      numbered.new = "\(index)"
      try history.append(numbered, suite: "big")
    }
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: history.file(suite: "big").path)[.size]
        as? Int)
    #expect(size <= ChangeHistory.maximumBytes)
    let kept = try history.entries(suite: "big")
    #expect(kept.last?.new == "2999")
    #expect(kept.map(\.new) == (3_000 - kept.count..<3_000).map { "\($0)" })
    #expect(kept.count > 1_000)
  }

  @Test func turnedOffNothingIsWrittenOrPrinted() throws {
    try history.append(
      ChangeHistory.Entry(time: time(0), key: "k", old: "1", new: "2", origin: "this editor"),
      suite: "off")
    #expect(ChangeHistory.user(environment: ["OBSERVABLE_DEFAULTS_HISTORY": "0"]) == nil)
    #expect(
      ChangeHistory.user(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"])?.folder.path
        == "/state/ObservableDefaults/history")
    #expect(
      ChangeHistory.user(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"])?.folder
        .path == "/home/u/.local/state/ObservableDefaults/history")
    let result = try ChildProcess(
      EditorProcess.binary, ["log", "off"],
      environment: [
        "XDG_STATE_HOME": editor.preferences.path + "/state", "OBSERVABLE_DEFAULTS_HISTORY": "0",
      ]
    ).finish()
    #expect(result.output == "")
    #expect(result.status == 0)
  }
}
