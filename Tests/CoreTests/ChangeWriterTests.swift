import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// A suite file observed into a log while the value lives.
final class ObservedSuite {
  let defaults: PropertyListDefaults
  let log = DefaultsChangeLog()
  private let observation: ObservationToken

  init(_ url: URL) {
    defaults = PropertyListDefaults(fileURL: url)
    observation = defaults.observe(log.handler)
  }

  deinit { observation.cancel() }
}

/// Who made each change, as observers are told it (`DefaultsChange.writer`).
@Suite struct ChangeWriterTests {
  /// The writers of the changes `log` recorded, once one names `key`.
  private func writers(of key: String, in log: DefaultsChangeLog) async
    -> [DefaultsChange.Writer]
  {
    _ = await poll { log.all.contains { $0.contains(key) } }
    return log.all.filter { $0.contains(key) }.map(\.writer)
  }

  @Test func aWriteOfThisProcessIsThisProcess() async throws {
    try await withTemporaryFolder { folder in
      let defaults = PropertyListDefaults(fileURL: folder.file("own.plist"))
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      defer { observation.cancel() }
      defaults.set("x", forKey: "k")
      #expect(log.all.map(\.writer) == [.thisProcess])
      #expect(log.all.map(\.origin) == [.thisProcess])
      try defaults.flush()
    }
  }

  @Test func anotherProgramIsNamedWithItsProcessID() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("shared.plist")
      let suite = ObservedSuite(url)
      let probe = try CoreProbe.start(["set", url.path, "greeting", "hello"])
      #expect(probe.finish().status == 0)
      #expect(
        await writers(of: "greeting", in: suite.log) == [
          .program(name: "core-probe", processID: probe.processIdentifier)
        ])
      #expect(suite.log.all.map(\.origin) == [.otherProcess])
    }
  }

  @Test func aHandEditIsAnUnmarkedWrite() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("hand.plist")
      let suite = ObservedSuite(url)
      try PropertyListSerialization.data(
        fromPropertyList: ["typed": "by hand"], format: .xml, options: 0
      ).write(to: url)
      #expect(await writers(of: "typed", in: suite.log) == [.unmarkedWrite])
    }
  }

  @Test func anEditInPlaceOverAnotherProgramsMarkIsAnUnmarkedWrite() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("stale.plist")
      #expect(try CoreProbe.run(["set", url.path, "a", "1"]).status == 0)
      let suite = ObservedSuite(url)
      // The same inode, still carrying core-probe's mark, with other bytes.
      let text = try String(contentsOf: url, encoding: .utf8)
        .replacingOccurrences(of: "<string>1</string>", with: "<string>22</string>")
      let handle = try FileHandle(forWritingTo: url)
      try handle.write(contentsOf: Data(text.utf8))
      try handle.close()
      #expect(await writers(of: "a", in: suite.log) == [.unmarkedWrite])
    }
  }

  @Test func aMigrationIsAMigration() async throws {
    try await withTemporaryFolder { folder in
      let defaults = PropertyListDefaults(fileURL: folder.file("migrated.plist"))
      defaults.set("Ada", forKey: "name")
      try defaults.flush()
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      defer { observation.cancel() }
      try defaults.migrate(
        SuiteMigrations([SuiteMigrationStep(to: 1, "rename") { $0.rename("name", to: "title") }]))
      #expect(await writers(of: "title", in: log) == [.migration])
    }
  }

  @Test func aCloudRecordOfAnotherDeviceNamesTheDevice() async throws {
    let phone = InMemoryCloudBackend()
    let laptop = phone.anotherDevice()
    let store = NSUbiquitousKeyValueStore(backend: phone)
    let log = DefaultsChangeLog()
    let observation = store.observe(log.handler)
    defer { observation.cancel() }
    let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
    try laptop.save([
      "k": CloudRecord(
        value: "v", timestamp: CloudTimestamp(time: now, counter: 0, device: "laptop"))
    ])
    #expect(await writers(of: "k", in: log) == [.device("laptop")])
  }

  @Test func writersReadForPeople() {
    let texts = [
      DefaultsChange.Writer.thisProcess, .program(name: "myapp", processID: 4711), .unmarkedWrite,
      .device("4711-1A2B3C4D"), .migration, .reset, .unknown,
    ].map(\.description)
    #expect(
      texts == [
        "this process", "myapp (pid 4711)", "hand edit or other program", "device 4711-1A2B3C4D",
        "migration", "reset", "unknown",
      ])
  }
}
