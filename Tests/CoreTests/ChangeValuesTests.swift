import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// A suite's change reports carry each changed key's stored value before and after the change
/// (`DefaultsChange.values(of:)`), for its own writes, for the changes it reads from the file
/// and through an administrator's mandatory file: the settings editor's change log keeps no copy
/// of every value for them.
@Suite struct ChangeValuesTests {
  /// The values `change` told for `key`, as text (`-` for not stored), or nil when it told none.
  private func told(_ change: DefaultsChange?, _ key: String) -> [String]? {
    change?.values(of: PropertyListKey(key)).map { values in
      [values.before, values.after].map { $0.map { "\($0)" } ?? "-" }
    }
  }

  @Test func writesTellTheValuesBeforeAndAfter() async throws {
    try await withTemporaryFolder { folder in
      let suite = ObservedSuite(folder.file("own.plist"))
      let (defaults, log) = (suite.defaults, suite.log)
      defaults.set("a", forKey: "k")
      defaults.set("b", forKey: "k")
      defaults.removeObject(forKey: "k")
      try defaults.write(["x": 1, "y": "two", "k": nil])
      #expect(log.all.count == 4)
      #expect(told(log.all.first, "k") == ["-", "a"])
      #expect(told(log.all.dropFirst().first, "k") == ["a", "b"])
      #expect(told(log.all.dropFirst(2).first, "k") == ["b", "-"])
      #expect(told(log.all.last, "x") == ["-", "1"])
      #expect(told(log.all.last, "y") == ["-", "two"])
      #expect(told(log.all.last, "k") == nil, "k was not stored: no change of it")
      try defaults.flush()
    }
  }

  @Test func aChangeReadFromTheFileTellsTheValuesBeforeAndAfter() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("read.plist")
      _ = try PropertyListFile(url: url).apply(["k": .set("old"), "kept": .set(1)])
      let suite = ObservedSuite(url)
      let log = suite.log
      _ = try PropertyListFile(url: url).apply(["k": .set("new"), "added": .set(true)])
      #expect(await poll { log.all.count == 1 })
      #expect(log.all.first?.origin == .otherProcess)
      #expect(told(log.all.first, "k") == ["old", "new"])
      #expect(told(log.all.first, "added") == ["-", "true"])
      #expect(told(log.all.first, "kept") == nil, "an unchanged key is not told")
    }
  }

  /// An XML entry whose text changed only in the white space between its key and its value is
  /// read again (its fingerprint covers that text) but not told: its value did not change.
  @Test func anEntryWhoseWhiteSpaceAloneChangedIsNotTold() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("spaced.plist")
      func write(_ entries: String) throws {
        let text = """
          <?xml version="1.0" encoding="UTF-8"?>
          <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" \
          "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
          <plist version="1.0">
          <dict>
          \(entries)
          </dict>
          </plist>

          """
        try Data(text.utf8).write(to: url)
      }
      try write("<key>k</key><string>v</string>\n<key>other</key><integer>1</integer>")
      let suite = ObservedSuite(url)
      let log = suite.log
      try write("<key>k</key>\n\t\t<string>v</string>\n<key>other</key><integer>2</integer>")
      #expect(await poll { log.all.count == 1 })
      #expect(told(log.all.first, "other") == ["1", "2"])
      #expect(told(log.all.first, "k") == nil, "only the white space of k changed")
      #expect(suite.defaults.string(forKey: "k") == "v")
    }
  }

  @Test func aChangeBesideAMandatoryKeyKeepsItsWriterAndValues() async throws {
    let machine = try SystemDefaultsTests.Machine()
    try machine.write(["locked": "admin"], to: machine.mandatoryFile(in: machine.first))
    _ = try PropertyListFile(url: machine.userFile).apply(["free": .set("old")])
    let defaults = machine.defaults()
    let log = DefaultsChangeLog()
    let observation = defaults.observe(log.handler)
    defer { observation.cancel() }
    _ = try PropertyListFile(url: machine.userFile).apply([
      "free": .set("new"), "locked": .set("user"),
    ])
    #expect(await poll { log.all.count == 1 })
    #expect(log.all.first == DefaultsChange(keys: ["free"], origin: .otherProcess))
    // This process wrote the file without the suite's storage: its mark names this process.
    #expect(log.all.first?.writer == .thisProcess)
    #expect(told(log.all.first, "free") == ["old", "new"])
  }
}
