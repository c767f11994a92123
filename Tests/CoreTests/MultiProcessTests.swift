import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Several processes sharing one suite file: `core-probe` instances started with `Process`.
@Suite(.serialized) struct MultiProcessTests {
  /// Runs `writers` probes at once, each writing `count` distinct keys, and checks the file.
  func concurrentWriters(_ writers: Int, count: Int) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("shared.plist")
      let started = try (0..<writers).map { writer in
        try CoreProbe.start(["write-keys", url.path, "w\(writer)", "\(count)", "10"])
      }
      for probe in started {
        #expect(probe.finish().status == 0)
      }
      let values = try foundationRead(url)
      #expect(values.count == writers * count)
      for writer in 0..<writers {
        for index in 0..<count {
          #expect(values["w\(writer)-\(index)"] as? Int == index, "w\(writer)-\(index)")
        }
      }
    }
  }

  @Test func twoProcessesWriting500KeysEachLoseNothing() async throws {
    try await concurrentWriters(2, count: 500)
  }

  @Test func fourProcessesWriting500KeysEachLoseNothing() async throws {
    try await concurrentWriters(4, count: 500)
  }

  @Test func valueSetWithoutFlushIsInTheFileAfterNormalExit() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("exit.plist")
      let result = try CoreProbe.run(["set", url.path, "greeting", "hello"])
      #expect(result.status == 0)
      #expect(try foundationRead(url)["greeting"] as? String == "hello")
      let many = try CoreProbe.run(["write-keys", url.path, "k", "300", "0"])
      #expect(many.status == 0)
      #expect(try foundationRead(url).count == 301)
    }
  }

  @Test func garbageFileKeepsItsBytesAndTheWriteReportsTheFile() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("garbage.plist")
      try Data("garbage".utf8).write(to: url)
      let result = try CoreProbe.run(["try-write", url.path, "k", "v"])
      #expect(result.status == 1)
      #expect(result.output.contains("garbage.plist"))
      #expect(result.output.contains("not a valid property list"))
      #expect(try Data(contentsOf: url) == Data("garbage".utf8))
    }
  }

  @Test func anotherProcessesWriteReachesObserversWithExactlyItsKey() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("observed.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      defaults.set("mine", forKey: "local")
      try defaults.flush()
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      #expect(try CoreProbe.run(["set", url.path, "remote", "theirs"]).status == 0)
      let arrived = await poll { !log.changes(from: .otherProcess).isEmpty }
      #expect(arrived)
      #expect(
        log.changes(from: .otherProcess) == [
          DefaultsChange(keys: ["remote"], origin: .otherProcess)
        ])
      #expect(defaults.string(forKey: "remote") == "theirs")
      #expect(defaults.string(forKey: "local") == "mine")

      defaults.set("again", forKey: "local")
      try defaults.flush()
      // Change notices are handled in order: once another process's later write has arrived,
      // the notice of the own write has been handled too.
      #expect(try CoreProbe.run(["set", url.path, "later", "x"]).status == 0)
      #expect(await poll { log.changes(from: .otherProcess).count == 2 })
      #expect(
        log.changes(from: .otherProcess).last
          == DefaultsChange(keys: ["later"], origin: .otherProcess))
      #expect(
        log.changes(from: .thisProcess) == [DefaultsChange(keys: ["local"], origin: .thisProcess)])
      withExtendedLifetime(observation) {}
    }
  }

  @Test func handEditIsPickedUpWithOnlyTheChangedKeys() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("hand.plist")
      try foundationWrite(["a": 1, "b": "two", "c": true], to: url)
      let defaults = PropertyListDefaults(fileURL: url)
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      try foundationWrite(["a": 1, "b": "deux", "d": 4.5], to: url)
      #expect(await poll { !log.all.isEmpty })
      #expect(log.all == [DefaultsChange(keys: ["b", "c", "d"], origin: .otherProcess)])
      #expect(defaults.string(forKey: "b") == "deux")
      #expect(defaults.object(forKey: "c") == nil)
      #expect(defaults.double(forKey: "d") == 4.5)

      try FileManager.default.removeItem(at: url)
      #expect(await poll { log.all.count == 2 })
      #expect(log.all.last == DefaultsChange(keys: ["a", "b", "d"], origin: .otherProcess))
      #expect(defaults.dictionaryRepresentation()["a"] == nil)
      withExtendedLifetime(observation) {}
    }
  }

  @Test func fileTurningMalformedKeepsValuesAndRecovers() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("turns.plist")
      try foundationWrite(["a": 1], to: url)
      let defaults = PropertyListDefaults(fileURL: url)
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      try Data("garbage".utf8).write(to: url)
      #expect(await poll { defaults.lastError != nil })
      #expect(defaults.lastError?.kind == .malformed)
      #expect(defaults.integer(forKey: "a") == 1)
      #expect(throws: PropertyListError.self) { try defaults.write(2, forKey: "a") }
      #expect(try Data(contentsOf: url) == Data("garbage".utf8))

      try foundationWrite(["a": 3], to: url)
      #expect(await poll { defaults.integer(forKey: "a") == 3 })
      #expect(defaults.lastError == nil)
      // Observers are told just after the values are in memory: wait for the call too.
      #expect(await poll { !log.all.isEmpty })
      #expect(log.all == [DefaultsChange(keys: ["a"], origin: .otherProcess)])
      try defaults.write(4, forKey: "a")
      try defaults.flush()
      #expect(try foundationRead(url)["a"] as? Int == 4)
      withExtendedLifetime(observation) {}
    }
  }

  @Test func binarySuiteStaysBinaryWhenWrittenThroughDefaults() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("binary.plist")
      try foundationWrite(["old": "x"], to: url, format: .binary)
      let defaults = PropertyListDefaults(fileURL: url)
      defaults.set("y", forKey: "new")
      try defaults.flush()
      #expect(try Data(contentsOf: url).starts(with: Array("bplist00".utf8)))
      let values = try foundationRead(url)
      #expect(values["old"] as? String == "x" && values["new"] as? String == "y")
    }
  }

  @Test func folderCreatedByTheFirstWriteIsWatchedAfterIt() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.url.appendingPathComponent("later/suite.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      defaults.set(1, forKey: "mine")
      try defaults.flush()
      #expect(try CoreProbe.run(["set", url.path, "theirs", "x"]).status == 0)
      #expect(await poll { defaults.string(forKey: "theirs") == "x" })
      // The value can be read before the watcher's notification reaches the observer.
      #expect(
        await poll {
          log.changes(from: .otherProcess) == [
            DefaultsChange(keys: ["theirs"], origin: .otherProcess)
          ]
        })
      withExtendedLifetime(observation) {}
    }
  }

  /// A suite whose folder does not exist yet (a fresh `XDG_CONFIG_HOME`) follows another process
  /// that creates the folder and the file, and follows it again after the folder is removed and
  /// made anew.
  @Test func aSuiteFollowsAnotherProcessThatCreatesItsFolder() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("not/yet/there/suite.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      let log = DefaultsChangeLog()
      let observation = defaults.observe(log.handler)
      #expect(try CoreProbe.run(["set", url.path, "k", "v"]).status == 0)
      #expect(await poll { defaults.string(forKey: "k") == "v" })
      // The value can be read before the watcher's notification reaches the observer.
      #expect(
        await poll {
          log.changes(from: .otherProcess) == [DefaultsChange(keys: ["k"], origin: .otherProcess)]
        })

      try FileManager.default.removeItem(at: folder.file("not"))
      #expect(await poll { defaults.string(forKey: "k") == nil })
      #expect(try CoreProbe.run(["set", url.path, "k", "again"]).status == 0)
      #expect(await poll { defaults.string(forKey: "k") == "again" })
      withExtendedLifetime(observation) {}
    }
  }
}
