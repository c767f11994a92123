import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// System-wide defaults and mandatory values of a suite, read from temporary folders that stand
/// for `$XDG_CONFIG_DIRS` (never `/etc/xdg`).
@Suite struct SystemDefaultsTests {
  /// A user's preferences folder and two system folders, the first the most important.
  struct Machine {
    let folder: TemporaryFolder
    let suite = "com.example.admin-" + UUID().uuidString.prefix(8)
    var home: URL { folder.file("home") }
    var first: URL { folder.file("xdg-first") }
    var second: URL { folder.file("xdg-second") }
    var userFile: URL { home.appendingPathComponent(suite + ".plist") }

    init() throws {
      folder = try TemporaryFolder()
      for url in [home, first, second] {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      }
    }

    func defaultsFile(in system: URL) -> URL {
      SystemConfigFolder(system).defaultsFile(of: suite)
    }

    func mandatoryFile(in system: URL) -> URL {
      SystemConfigFolder(system).mandatoryFile(of: suite)
    }

    /// Writes `values` to `url` as an administrator would (atomically, folders made on the way).
    func write(_ values: [String: Any], to url: URL) throws {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try foundationWrite(values, to: url)
    }

    /// The suite with both system folders.
    func defaults() -> PropertyListDefaults {
      PropertyListDefaults(fileURL: userFile, suite: suite, systemFolders: [first, second])
    }
  }

  @Test func eachLayerWinsOverTheOnesBelowIt() throws {
    let machine = try Machine()
    let key = { (name: String) in "\(machine.suite).\(name)" }
    try machine.write(
      [key("a"): "second", key("b"): "second", key("d"): "second"],
      to: machine.defaultsFile(in: machine.second))
    try machine.write(
      [key("a"): "first", key("b"): "first", key("c"): "first"],
      to: machine.defaultsFile(in: machine.first))
    try machine.write([key("a"): "mandatory"], to: machine.mandatoryFile(in: machine.second))
    try machine.write([key("a"): "user", key("b"): "user"], to: machine.userFile)
    let defaults = machine.defaults()
    defaults.register(defaults: [key("c"): "registered", key("e"): "registered"])

    #expect(defaults.string(forKey: key("a")) == "mandatory")
    #expect(defaults.string(forKey: key("b")) == "user")
    #expect(defaults.string(forKey: key("c")) == "first")
    #expect(defaults.string(forKey: key("d")) == "second")
    #expect(defaults.string(forKey: key("e")) == "registered")
    #expect(defaults.object(forKey: key("f")) == nil)
    #expect(
      defaults.layer(forKey: key("a"))
        == .mandatory(file: machine.mandatoryFile(in: machine.second)))
    #expect(defaults.layer(forKey: key("b")) == .user(file: machine.userFile))
    #expect(
      defaults.layer(forKey: key("c")) == .system(file: machine.defaultsFile(in: machine.first)))
    #expect(
      defaults.layer(forKey: key("d")) == .system(file: machine.defaultsFile(in: machine.second)))
    #expect(defaults.layer(forKey: key("e")) == .registered)
    #expect(defaults.layer(forKey: key("f")) == nil)
    let all = defaults.dictionaryRepresentation()
    #expect(
      [key("a"), key("b"), key("c"), key("d"), key("e")].map { all[$0] as? String } == [
        "mandatory", "user", "first", "second", "registered",
      ])
    // The user's own file keeps its own value under the lock.
    #expect(defaults.persistentValue(forKey: key("a")) as? String == "user")
  }

  @Test func theCommandLineWinsOverAMandatoryValueInAnotherProcess() throws {
    let machine = try Machine()
    try machine.write(["a": "system", "b": "system"], to: machine.defaultsFile(in: machine.first))
    try machine.write(
      ["a": "mandatory", "b": "mandatory"], to: machine.mandatoryFile(in: machine.first))
    try machine.write(["c": "user"], to: machine.userFile)
    let result = try CoreProbe.run(
      ["layers", machine.suite, "a,b,c,d", "-a", "argument"], configHome: machine.home,
      environment: ["XDG_CONFIG_DIRS": machine.first.path + ":relative/ignored"])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        a=argument (command line)
        b=mandatory (mandatory)
        c=user (user)
        d=registered (registered)

        """)
  }

  @Test func aProgramReportsASystemFileItDoesNotUseOnStandardError() throws {
    let machine = try Machine()
    try Data("garbage".utf8).write(to: machine.defaultsFile(in: machine.first))
    try machine.write(["a": "user"], to: machine.userFile)
    let result = try CoreProbe.run(
      ["layers", machine.suite, "a"], configHome: machine.home,
      environment: ["XDG_CONFIG_DIRS": machine.first.path])
    #expect(result.status == 0)
    #expect(result.output == "a=user (user)\n")
    #expect(
      result.error.hasPrefix(
        "PropertyListDefaults: \(machine.defaultsFile(in: machine.first).path) is not used: it is "
          + "not a valid property list ("))
    #expect(result.error.split(separator: "\n").count == 1)
  }

  @Test func objectIsForcedNamesTheMandatoryKeysOfEachSuite() throws {
    let machine = try Machine()
    try machine.write(["locked": 1], to: machine.mandatoryFile(in: machine.second))
    try machine.write(["shipped": 2], to: machine.defaultsFile(in: machine.first))
    try machine.write(
      ["other": true],
      to: machine.second.appendingPathComponent(
        "ObservableDefaults/mandatory/other-suite.plist"))
    let defaults = machine.defaults()
    #expect(defaults.objectIsForced(forKey: "locked"))
    #expect(!defaults.objectIsForced(forKey: "shipped"))
    #expect(!defaults.objectIsForced(forKey: "missing"))
    #expect(defaults.objectIsForced(forKey: "other", inDomain: "other-suite"))
    #expect(!defaults.objectIsForced(forKey: "locked", inDomain: "other-suite"))
    #expect(defaults.objectIsForced(forKey: "locked", inDomain: machine.suite))
    #expect(!defaults.objectIsForced(forKey: "other", inDomain: "a/b"))
    #expect(!PropertyListDefaults(fileURL: machine.userFile).objectIsForced(forKey: "locked"))
  }

  @Test func aWriteToAMandatoryKeyIsRefusedAndTheValueStays() throws {
    let machine = try Machine()
    let lock = machine.mandatoryFile(in: machine.first)
    try machine.write(["theme": "dark"], to: lock)
    let defaults = machine.defaults()
    let log = DefaultsChangeLog()
    let observation = defaults.observe(log.handler)
    defer { observation.cancel() }

    defaults.set("light", forKey: "theme")
    #expect(defaults.string(forKey: "theme") == "dark")
    let error = try #require(defaults.lastError)
    #expect(error.kind == .mandatory(key: "theme"))
    #expect(error.file == lock)
    #expect(
      error.description
        == "cannot store \"theme\": it is mandatory, set by \(lock.path) (an administrator's "
        + "lock; the value stays as set there)")
    #expect(throws: error) { try defaults.write("light", forKey: "theme") }
    #expect(throws: error) { try defaults.write(["theme": "light", "size": 3]) }
    #expect(defaults.object(forKey: "size") == nil)
    defaults.removeObject(forKey: "theme")
    #expect(defaults.string(forKey: "theme") == "dark")
    try defaults.flush()
    #expect(!FileManager.default.fileExists(atPath: machine.userFile.path))
    #expect(log.all.isEmpty)
    // Other keys are written as ever, and the error clears.
    defaults.set(4, forKey: "size")
    try defaults.flush()
    #expect(try foundationRead(machine.userFile) as NSDictionary == ["size": 4])
  }

  @Test func aChangedSystemFileTellsOnlyTheKeysWhoseValueChanged() async throws {
    let machine = try Machine()
    try machine.write(
      ["shown": "old", "hidden": "system"], to: machine.defaultsFile(in: machine.first))
    try machine.write(["hidden": "user", "mine": "user"], to: machine.userFile)
    let defaults = machine.defaults()
    let log = DefaultsChangeLog()
    let observation = defaults.observe(log.handler)
    defer { observation.cancel() }

    // `hidden` is the user's: a new default for it changes nothing anyone reads.
    try machine.write(
      ["shown": "new", "hidden": "system 2", "added": 1],
      to: machine.defaultsFile(in: machine.first))
    #expect(await poll { log.all.count == 1 })
    #expect(log.all == [DefaultsChange(keys: ["shown", "added"], origin: .otherProcess)])
    #expect(log.all.last?.writer == .administrator)
    #expect(defaults.string(forKey: "shown") == "new")
    #expect(defaults.integer(forKey: "added") == 1)

    // A lock over the user's value changes it; a lock with the value already read does not.
    try machine.write(
      ["mine": "locked", "shown": "new"], to: machine.mandatoryFile(in: machine.second))
    #expect(await poll { log.all.count == 2 })
    #expect(log.all.last == DefaultsChange(keys: ["mine"], origin: .otherProcess))
    #expect(log.all.last?.writer == .administrator)
    #expect(defaults.string(forKey: "mine") == "locked")
    #expect(defaults.objectIsForced(forKey: "shown"))

    // The user's file changing a locked key is no change of its value.
    try foundationWrite(["hidden": "user", "mine": "user 2", "other": 5], to: machine.userFile)
    #expect(await poll { log.all.count == 3 })
    #expect(log.all.last == DefaultsChange(keys: ["other"], origin: .otherProcess))
    #expect(log.all.last?.writer != .administrator)

    // The lock goes: the user's value is back.
    try FileManager.default.removeItem(at: machine.mandatoryFile(in: machine.second))
    #expect(await poll { log.all.count == 4 })
    #expect(log.all.last == DefaultsChange(keys: ["mine"], origin: .otherProcess))
    #expect(log.all.last?.writer == .administrator)
    #expect(defaults.string(forKey: "mine") == "user 2")
    #expect(!defaults.objectIsForced(forKey: "shown"))
  }

  @Test func aSystemFileThatDoesNotParseIsReportedAndIgnored() throws {
    let machine = try Machine()
    try machine.write(["size": 1], to: machine.defaultsFile(in: machine.second))
    try Data("garbage".utf8).write(to: machine.defaultsFile(in: machine.first))
    try FileManager.default.createDirectory(
      at: machine.mandatoryFile(in: machine.first).deletingLastPathComponent(),
      withIntermediateDirectories: true)
    try Data("<plist><string>x</string></plist>".utf8).write(
      to: machine.mandatoryFile(in: machine.first))
    let system = SystemDefaults(suite: machine.suite, folders: [machine.first, machine.second])
    #expect(system.problems.count == 2)
    #expect(
      system.problems.allSatisfy { $0.contains(" is not used: it is not a valid property list (") })
    #expect(system.problems.first?.hasPrefix(machine.defaultsFile(in: machine.first).path) == true)
    let defaults = machine.defaults()
    #expect(defaults.integer(forKey: "size") == 1)
    #expect(!defaults.objectIsForced(forKey: "size"))
    defaults.set(2, forKey: "size")
    #expect(defaults.lastError == nil)
    #expect(defaults.integer(forKey: "size") == 2)
    try defaults.flush()
  }

  @Test func aSystemFolderWritableByOthersIsNotTrusted() throws {
    let machine = try Machine()
    try machine.write(["size": 1], to: machine.defaultsFile(in: machine.first))
    try machine.write(["size": 9], to: machine.mandatoryFile(in: machine.second))
    try machine.write(["size": 2], to: machine.defaultsFile(in: machine.second))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o777], ofItemAtPath: machine.first.path)
    let mandatoryFolder = machine.mandatoryFile(in: machine.second).deletingLastPathComponent()
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o1777], ofItemAtPath: mandatoryFolder.path)
    let system = SystemDefaults(suite: machine.suite, folders: [machine.first, machine.second])
    #expect(
      system.problems == [
        "\(machine.defaultsFile(in: machine.first).path) is not used: \(machine.first.path) is "
          + "writable by others (mode 777; chmod o-w \(machine.first.path))",
        "\(machine.mandatoryFile(in: machine.second).path) is not used: \(mandatoryFolder.path) "
          + "is writable by others (mode 1777; chmod o-w \(mandatoryFolder.path))",
      ])
    let defaults = machine.defaults()
    #expect(defaults.integer(forKey: "size") == 2)
    #expect(!defaults.objectIsForced(forKey: "size"))
  }

  @Test func aSymbolicLinkIsFollowedOnlyIntoAFolderOthersCannotWrite() throws {
    let machine = try Machine()
    let open = machine.folder.file("open")
    let safe = machine.folder.file("safe")
    try machine.write(["size": 7], to: open.appendingPathComponent("evil.plist"))
    try machine.write(["size": 3], to: safe.appendingPathComponent("shipped.plist"))
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open.path)
    try FileManager.default.createDirectory(
      at: machine.mandatoryFile(in: machine.first).deletingLastPathComponent(),
      withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: machine.mandatoryFile(in: machine.first),
      withDestinationURL: open.appendingPathComponent("evil.plist"))
    try FileManager.default.createSymbolicLink(
      at: machine.defaultsFile(in: machine.first),
      withDestinationURL: safe.appendingPathComponent("shipped.plist"))
    let system = SystemDefaults(suite: machine.suite, folders: [machine.first])
    #expect(
      system.problems == [
        "\(machine.mandatoryFile(in: machine.first).path) is not used: it is a symbolic link to "
          + "\(open.path)/evil.plist, and \(open.path) is writable by others (mode 777; chmod "
          + "o-w \(open.path))"
      ])
    let defaults = machine.defaults()
    #expect(defaults.integer(forKey: "size") == 3)
    #expect(!defaults.objectIsForced(forKey: "size"))
  }

  /// A link's problem names its target, never the link: `chmod o-w` of the link would change
  /// the target, a device here.
  @Test func aSymbolicLinkToADeviceOrAFileOthersCanWriteNamesItsTarget() throws {
    let machine = try Machine()
    let safe = machine.folder.file("safe")
    let shared = safe.appendingPathComponent("shared.plist")
    try machine.write(["size": 7], to: shared)
    try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: shared.path)
    try FileManager.default.createDirectory(
      at: machine.mandatoryFile(in: machine.first).deletingLastPathComponent(),
      withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: machine.mandatoryFile(in: machine.first).path, withDestinationPath: "/dev/zero")
    try FileManager.default.createSymbolicLink(
      at: machine.defaultsFile(in: machine.first), withDestinationURL: shared)
    let system = SystemDefaults(suite: machine.suite, folders: [machine.first])
    #expect(
      system.problems == [
        "\(machine.defaultsFile(in: machine.first).path) is not used: it is a symbolic link to "
          + "\(shared.path), and \(shared.path) is writable by others (mode 666; chmod o-w "
          + "\(shared.path))",
        "\(machine.mandatoryFile(in: machine.first).path) is not used: it is a symbolic link to "
          + "/dev/zero, which is not a regular file",
      ])
  }

  @Test func systemFoldersFollowXDGConfigDirs() {
    #expect(
      PreferencesDirectory.systemFolders(environment: [:]).map(\.path) == ["/etc/xdg"])
    #expect(
      PreferencesDirectory.systemFolders(environment: ["XDG_CONFIG_DIRS": ""]).map(\.path) == [
        "/etc/xdg"
      ])
    #expect(
      PreferencesDirectory.systemFolders(environment: ["XDG_CONFIG_DIRS": "/a:b:/c/d"])
        .map(\.path) == ["/a", "/c/d"])
  }
}
