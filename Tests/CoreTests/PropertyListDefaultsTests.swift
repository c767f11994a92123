import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@Suite struct PropertyListDefaultsTests {
  @Test func instancesOfOneFileShareWritesSynchronously() async throws {
    try await withDefaults("shared.plist") { first, folder in
      let second = PropertyListDefaults(fileURL: folder.file("shared.plist"))
      let log = DefaultsChangeLog()
      let observation = second.observe(log.handler)
      first.set("Fatbobman", forKey: "name")
      #expect(second.string(forKey: "name") == "Fatbobman")
      #expect(log.all == [DefaultsChange(keys: ["name"], origin: .thisProcess)])
      observation.cancel()
      first.set("other", forKey: "name")
      #expect(log.all.count == 1)
    }
  }

  @Test func writesReachTheFileInFoundationsFormat() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("format.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      defaults.set(42, forKey: "int")
      defaults.set(["a", "b"], forKey: "array")
      try defaults.flush()
      let values = try foundationRead(url)
      #expect(values["int"] as? Int == 42)
      #expect(values["array"] as? [String] == ["a", "b"])
      #expect(try String(contentsOf: url, encoding: .utf8).hasPrefix("<?xml"))
    }
  }

  @Test func typedGettersReadEveryNumber() async throws {
    try await withDefaults("typed.plist") { defaults, _ in
      defaults.set(Float(1.5), forKey: "float")
      defaults.set(3.75, forKey: "double")
      defaults.set(7, forKey: "int")
      defaults.set(true, forKey: "bool")
      defaults.set(Int8(9), forKey: "int8")
      #expect(defaults.float(forKey: "float") == 1.5)
      #expect(defaults.object(forKey: "float") as? Double == 1.5)
      #expect(defaults.integer(forKey: "double") == 3)
      #expect(defaults.double(forKey: "int") == 7)
      #expect(defaults.bool(forKey: "bool"))
      #expect(defaults.object(forKey: "bool") as? Bool == true)
      #expect(defaults.object(forKey: "int8") as? Int == 9)
      #expect(defaults.integer(forKey: "missing") == 0)
    }
  }

  @Test func urlsRoundTripAndNilRemoves() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("url.plist")
      let defaults = PropertyListDefaults(fileURL: url)
      let web = try #require(URL(string: "https://example.com/a/b?q=1"))
      defaults.set(web, forKey: "web")
      #expect(defaults.url(forKey: "web") == web)
      #expect(defaults.string(forKey: "web") == "https://example.com/a/b?q=1")
      defaults.set("~/notes", forKey: "path")
      #expect(
        defaults.url(forKey: "path")?.path == NSString(string: "~/notes").expandingTildeInPath)
      defaults.set(nil, forKey: "web")
      #expect(defaults.object(forKey: "web") == nil)
      defaults.set(1, forKey: "other")
      defaults.set(nil as Any?, forKey: "other")
      #expect(defaults.object(forKey: "other") == nil)
      try defaults.flush()
      #expect(try foundationRead(url)["web"] == nil)
    }
  }

  @Test func registeredDefaultsApplyUntilAValueIsStored() async throws {
    try await withDefaults("registered.plist") { defaults, folder in
      let key = "registered-\(UUID().uuidString)"
      defaults.register(defaults: [key: 10])
      #expect(defaults.integer(forKey: key) == 10)
      #expect(defaults.persistentValue(forKey: key) == nil)
      #expect(defaults.registeredDefault(forKey: key) as? Int == 10)
      let elsewhere = PropertyListDefaults(fileURL: folder.file("elsewhere.plist"))
      #expect(elsewhere.integer(forKey: key) == 10)
      defaults.set(11, forKey: key)
      #expect(defaults.integer(forKey: key) == 11)
      #expect(defaults.dictionaryRepresentation()[key] as? Int == 11)
      #expect(elsewhere.dictionaryRepresentation()[key] as? Int == 10)
    }
  }

  @Test func nonPropertyListValueIsRefusedAndNamed() async throws {
    try await withDefaults("refuse.plist") { defaults, _ in
      defaults.set("kept", forKey: "k")
      // On disk first: a flush finishing later would clear `lastError` (it holds the latest outcome).
      try defaults.flush()
      let error = try #require(throws: PropertyListError.self) {
        try defaults.write(NSObject(), forKey: "k")
      }
      #expect(error.kind == .invalidValue(key: "k"))
      #expect(error.description.contains("\"k\""))
      #expect(error.description.contains("NSObject"))
      defaults.set(NSObject(), forKey: "k")
      #expect(defaults.string(forKey: "k") == "kept")
      #expect(defaults.lastError?.kind == .invalidValue(key: "k"))
      #expect(defaults.synchronize())
    }
  }

  @Test func excludedObservationIsNotToldAndUnchangedValuesAreNotReported() async throws {
    try await withDefaults("exclude.plist") { defaults, _ in
      let writer = DefaultsChangeLog()
      let other = DefaultsChangeLog()
      let writerObservation = defaults.observe(writer.handler)
      let otherObservation = defaults.observe(other.handler)
      try defaults.write(1, forKey: "k", excluding: writerObservation)
      try defaults.write(1, forKey: "k")
      #expect(writer.all.isEmpty)
      #expect(other.all == [DefaultsChange(keys: ["k"], origin: .thisProcess)])
      withExtendedLifetime(otherObservation) {}
    }
  }

  @Test func didChangeNotificationNamesTheInstanceAndSkipsUnchangedWrites() async throws {
    try await withDefaults("notify.plist") { defaults, _ in
      let count = DefaultsChangeLog()
      let token = NotificationCenter.default.addObserver(
        forName: UserDefaults.didChangeNotification, object: defaults, queue: nil
      ) { _ in count.handler(DefaultsChange(keys: [], origin: .thisProcess)) }
      defer { NotificationCenter.default.removeObserver(token) }
      defaults.set("v", forKey: "k")
      #expect(await poll { count.all.count == 1 })
      // Posts are coalesced per burst (how many a burst gets depends on scheduling), and a
      // write that changes nothing posts nothing.
      defaults.set("v", forKey: "k")
      // A later change posts once more; had the unchanged write posted, there would be three.
      defaults.set("w", forKey: "later")
      #expect(await poll { count.all.count >= 2 })
      #expect(count.all.count == 2)
    }
  }

  @Test func malformedFileRefusesWritesAndKeepsItsBytes() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("garbage.plist")
      try Data("garbage".utf8).write(to: url)
      let defaults = PropertyListDefaults(fileURL: url)
      let error = try #require(throws: PropertyListError.self) {
        try defaults.write(1, forKey: "k")
      }
      #expect(error.kind == .malformed)
      #expect(error.description.contains(url.path) || error.description.contains("garbage.plist"))
      defaults.set(2, forKey: "k")
      #expect(defaults.object(forKey: "k") == nil)
      #expect(defaults.lastError?.kind == .malformed)
      #expect(!defaults.synchronize())
      #expect(!defaults.synchronize())
      #expect(try Data(contentsOf: url) == Data("garbage".utf8))
    }
  }

  @Test func standardIsThisClassAndNamedAfterTheProgram() {
    let standard = PropertyListDefaults.standard
    #expect(standard.fileURL.lastPathComponent == PreferencesDirectory.standardSuiteName + ".plist")
    #expect(standard === PropertyListDefaults.standard)
  }
}
