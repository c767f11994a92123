import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// The change history every writer of the package appends to (`ChangeHistory`): a program's
/// writes through a suite, bounded, off on request, never failing a write, safe with several
/// writers appending at once.
@Suite struct ChangeHistoryTests {
  private let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// The history the probes started with `configHome: folder.url` write.
  private var history: ChangeHistory {
    ChangeHistory(folder: folder.file("state/ObservableDefaults/history"))
  }

  /// Runs `core-probe try-write` of `key` = `value` into `file`; returns its process id.
  private func write(
    _ key: String, _ value: String, into file: URL, environment: [String: String] = [:]
  ) throws -> Int32 {
    let probe = try CoreProbe.start(
      ["try-write", file.path, key, value], configHome: folder.url, environment: environment)
    let result = probe.finish()
    #expect(result.status == 0, "\(result.output)")
    return probe.processIdentifier
  }

  @Test func aProgramsWritesToASuiteAreInItsHistory() throws {
    let suite = folder.file("com.example.app.plist")
    let first = try write("name", "Ann", into: suite)
    let second = try write("name", "Bo", into: suite)
    _ = try write("name", "Bo", into: suite)
    let entries = try history.entries(suite: "com.example.app")
    #expect(entries.map(\.key) == ["name", "name"])
    #expect(entries.map(\.old) == ["(none)", "Ann"])
    #expect(entries.map(\.new) == ["Ann", "Bo"])
    #expect(
      entries.map(\.origin) == ["core-probe (pid \(first))", "core-probe (pid \(second))"])
  }

  /// A nested dictionary holding two keys that differ only in Unicode normalization (exact keys)
  /// is summarized with both (the line's summary trapped on them).
  @Test func aNestedDictionaryWithBothFormsOfAKeyKeepsBoth() {
    let nested: [PropertyListKey: Any] = [
      PropertyListKey("\u{E9}"): 1, PropertyListKey("e\u{301}"): 2, PropertyListKey("a"): 3,
    ]
    #expect(ChangeHistory.text(of: nested) == "{3 keys}")
  }

  /// One line an entry, each field escaped; the entries of one write share its time and
  /// origin fields, and an entry of another time or origin has its own.
  @Test func entriesAreWrittenOneLineEachWithTheirOwnTimeAndOrigin() throws {
    let (first, second) = (
      Date(timeIntervalSince1970: 1_796_500_984), Date(timeIntervalSince1970: 1_796_500_985)
    )
    try history.append(
      [
        .init(time: first, key: "a", old: "(none)", new: "1", origin: "app (pid 1)"),
        .init(time: first, key: "b\u{1B}", old: "x", new: "(none)", origin: "app (pid 1)"),
        .init(time: first, key: "c", old: "2", new: "3", origin: "other (pid 2)"),
        .init(time: second, key: "c", old: "3", new: "4", origin: "other (pid 2)"),
      ], suite: "com.example.lines")
    let text = try String(
      contentsOf: history.file(suite: "com.example.lines"), encoding: .utf8)
    #expect(
      text == """
        2026-12-05T20:03:04Z\ta\t(none)\t1\tapp (pid 1)
        2026-12-05T20:03:04Z\tb\\u{1b}\tx\t(none)\tapp (pid 1)
        2026-12-05T20:03:04Z\tc\t2\t3\tother (pid 2)
        2026-12-05T20:03:05Z\tc\t3\t4\tother (pid 2)

        """)
  }

  @Test func aFileOutsideThePreferencesFolderHasNoHistory() throws {
    _ = try write("name", "Ann", into: folder.file("elsewhere/com.example.app.plist"))
    #expect(!FileManager.default.fileExists(atPath: history.folder.path))
  }

  @Test func turnedOffNothingIsWritten() throws {
    _ = try write(
      "name", "Ann", into: folder.file("com.example.app.plist"),
      environment: ["OBSERVABLE_DEFAULTS_HISTORY": "0"])
    #expect(!FileManager.default.fileExists(atPath: history.folder.path))
  }

  @Test func aHistoryThatCannotBeWrittenNeverFailsTheWrite() throws {
    // The state folder is a file: no history folder can be made under it.
    try Data("not a folder".utf8).write(to: folder.file("state"))
    let suite = folder.file("com.example.app.plist")
    _ = try write("name", "Ann", into: suite)
    let read = try CoreProbe.run(["get", suite.path, "name"], configHome: folder.url)
    #expect(read.output == "Ann\n")
  }

  @Test func aLongValueIsCutInItsLine() throws {
    let suite = folder.file("com.example.app.plist")
    _ = try write("text", String(repeating: "a", count: 100_000), into: suite)
    let entry = try #require(try history.entries(suite: "com.example.app").first)
    #expect(entry.new == String(repeating: "a", count: ChangeHistory.maximumValueLength - 1) + "…")
  }

  /// Appends `count` entries numbered 0… of writer `writer`, each on its own open of the file.
  private func appendNumbered(_ count: Int, writer: Int, padding: Int) throws {
    for index in 0..<count {
      try history.append(
        ChangeHistory.Entry(
          time: Date(), key: "k\(writer)", old: String(repeating: "x", count: padding),
          new: "\(index)", origin: "writer \(writer)"),
        suite: "shared")
    }
  }

  /// Whether `entries` hold, of each of `writers` writers that appended `count` entries, its
  /// newest ones in the order it appended them, none missing (a trim drops the oldest lines
  /// only), and nothing else.
  private func keepNewest(_ entries: [ChangeHistory.Entry], writers: Int, count: Int) -> Bool {
    (0..<writers).allSatisfy { writer in
      let numbers = entries.filter { $0.origin == "writer \(writer)" }.compactMap { Int($0.new) }
      return numbers == Array(count - numbers.count..<count)
    } && entries.allSatisfy { entry in (0..<writers).contains { entry.origin == "writer \($0)" } }
  }

  @Test func severalWritersAppendingAtOnceLoseNoLine() throws {
    // Each thread opens the file itself: flock(2) locks and O_APPEND writes act per open file,
    // as between processes.
    DispatchQueue.concurrentPerform(iterations: 8) { writer in
      try? appendNumbered(200, writer: writer, padding: 20)
    }
    let entries = try history.entries(suite: "shared")
    #expect(entries.count == 1_600)
    let keptAll = keepNewest(entries, writers: 8, count: 200)
    #expect(keptAll)
  }

  @Test func severalWritersTrimmingAtOnceKeepWholeLinesAndTheBound() throws {
    // 4 × 1,500 lines of about 250 bytes: 1.5 MB through a 256 KiB file, trimmed many times.
    DispatchQueue.concurrentPerform(iterations: 4) { writer in
      try? appendNumbered(1_500, writer: writer, padding: 200)
    }
    let file = history.file(suite: "shared")
    let text = try String(contentsOf: file, encoding: .utf8)
    let entries = try history.entries(suite: "shared")
    #expect(text.split(separator: "\n").count == entries.count)
    #expect(text.utf8.count <= ChangeHistory.maximumBytes)
    #expect(entries.count > 400)
    let keptNewest = keepNewest(entries, writers: 4, count: 1_500)
    #expect(keptNewest)
    // The newest line is some writer's last.
    #expect(entries.last?.new == "1499")
  }
}
