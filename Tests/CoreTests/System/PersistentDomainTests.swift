import Foundation
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// `setPersistentDomain(_:forName:)` (and `removePersistentDomain(forName:)`, `settings-editor
/// delete <suite>`) replace a domain in one write, on the suite that name opens
/// (``PropertyListDefaults/replaceValues(with:)``).
@Suite struct PersistentDomainTests {
  /// One change is told for every key, a mandatory key and a value that is not a property-list
  /// value keep what they hold (each reported), and the file gets the rest at once.
  @Test func aDomainIsReplacedInOneWrite() throws {
    let folder = try TemporaryFolder()
    let (home, system) = (folder.file("home"), folder.file("xdg"))
    let suite = "com.example.domain"
    let userFile = home.appendingPathComponent(suite + ".plist")
    let lock = SystemConfigFolder(system).mandatoryFile(of: suite)
    for url in [home, lock.deletingLastPathComponent()] {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    try foundationWrite(["theme": "dark"], to: lock)
    try foundationWrite(["a": 1, "b": 2, "c": 3, "theme": "blue", "kept": "x"], to: userFile)
    let defaults = PropertyListDefaults(fileURL: userFile, suite: suite, systemFolders: [system])
    let log = DefaultsChangeLog()
    let observation = defaults.observe(log.handler)
    defer { observation.cancel() }

    defaults.replaceValues(with: [
      "b": 20, "kept": "x", "d": "new", "theme": "light", "bad": NSObject(),
    ])
    // Both failures are reported; the last one recorded stays (until a flush succeeds).
    let error = try #require(defaults.lastError)
    #expect(
      [PropertyListError.Kind.mandatory(key: "theme"), .invalidValue(key: "bad")]
        .contains(error.kind))
    try defaults.flush()

    #expect(log.all.count == 1)
    #expect(log.all.first?.exactKeys == ["a", "b", "c", "d"])
    #expect(
      try foundationRead(userFile) as NSDictionary == [
        "b": 20, "kept": "x", "d": "new", "theme": "blue",
      ])
    #expect(defaults.string(forKey: "theme") == "dark")

    defaults.replaceValues(with: [:])
    try defaults.flush()
    #expect(log.all.count == 2)
    #expect(log.all.last?.exactKeys == ["b", "kept", "d"])
    #expect(try foundationRead(userFile) as NSDictionary == ["theme": "blue"])
  }
}
