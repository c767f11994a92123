import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// ``PropertyListFile/save(_:over:)`` on every shared fixture: untouched without edits, one value
/// changed with one edit, format kept, conflicts refused, symbolic links followed.
@Suite struct PropertyListSaveTests {
  static let fixtures = [
    "iterm2-xml.plist", "rectangle-binary.plist", "finder-binary.plist",
    "global-preferences-binary.plist", "empty-dict-binary.plist", "quicksilver-plugins-xml.plist",
  ]

  private func copy(_ fixture: String, into folder: TemporaryFolder) throws -> URL {
    try PropertyListFileTests().copy(fixture, into: folder)
  }

  /// The inode and modification time, which any rewrite changes.
  private func identity(_ url: URL) throws -> [FileAttributeKey: AnyHashable] {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return [
      .systemFileNumber: attributes[.systemFileNumber] as? AnyHashable,
      .modificationDate: attributes[.modificationDate] as? AnyHashable,
    ].compactMapValues { $0 }
  }

  @Test(arguments: fixtures)
  func savingWithoutEditsLeavesTheBytesAndTheFileAlone(fixture: String) async throws {
    try await withTemporaryFolder { folder in
      let url = try copy(fixture, into: folder)
      let before = try Data(contentsOf: url)
      let identityBefore = try identity(url)
      let file = PropertyListFile(url: url)
      let loaded = try #require(try file.read())
      let saved = try file.save([:], over: loaded)
      #expect(try Data(contentsOf: url) == before)
      #expect(try identity(url) == identityBefore)
      #expect(propertyListValuesEqual(saved.values, loaded.values))
    }
  }

  /// A top-level scalar of each fixture edited to a new value of its type (the empty fixture
  /// gets a new key).
  @Test(arguments: fixtures)
  func editingOneScalarChangesOnlyThatValueAndKeepsTheFormat(fixture: String) async throws {
    try await withTemporaryFolder { folder in
      let url = try copy(fixture, into: folder)
      let file = PropertyListFile(url: url)
      let loaded = try #require(try file.read())
      let key =
        loaded.values.keys.sorted().first {
          !(loaded.values[$0] is [Any] || loaded.values[$0] is [String: Any])
        }
        ?? "added"
      let newValue = Self.differentValue(than: loaded.values[key])
      _ = try file.save([key: .set(newValue)], over: loaded)

      let reloaded = try #require(try file.read())
      #expect(reloaded.format == loaded.format)
      let binaryMagic = try Data(contentsOf: url).prefix(8) == Data("bplist00".utf8)
      #expect(binaryMagic == (loaded.format == .binary))
      #expect(propertyListValuesEqual(reloaded.values[key], newValue))
      var expected = loaded.values
      expected[key] = newValue
      let differing = Set(expected.keys).union(reloaded.values.keys).filter {
        !propertyListValuesEqual(expected[$0], reloaded.values[$0])
      }
      #expect(differing.isEmpty, "values that changed besides \(key): \(differing.sorted())")
    }
  }

  /// A value of the same type as `value` that differs from it.
  private static func differentValue(than value: Any?) -> Any {
    switch value {
    case let text as String: text + " (edited)"
    case let flag as Bool: !flag
    case let number as Int: number == Int.max ? 0 : number + 1
    case let number as Double: number + 0.25
    // Whole seconds: XML property lists store dates to the second.
    case let date as Date: date.addingTimeInterval(60)
    case let data as Data: data + Data([0xff])
    default: "new"
    }
  }

  @Test func largeIntegersAndFractionalDatesSurviveABinaryRoundTrip() async throws {
    try await withTemporaryFolder { folder in
      let url = try copy("global-preferences-binary.plist", into: folder)
      let file = PropertyListFile(url: url)
      let loaded = try #require(try file.read())
      // 2024-02-29T23:59:59.123456Z
      let date = Date(timeIntervalSinceReferenceDate: 730_943_999.123_456)
      let changes: [PropertyListKey: PropertyListChange] = [
        "max": .set(UInt64.max), "twoTo63": .set(UInt64(1) << 63), "min": .set(Int.min),
        "when": .set(date),
      ]
      _ = try file.save(changes, over: loaded)
      let reloaded = try #require(try file.read())
      #expect(reloaded.format == .binary)
      #expect(reloaded.values["max"] as? UInt64 == UInt64.max)
      #expect(reloaded.values["twoTo63"] as? UInt64 == UInt64(1) << 63)
      #expect(reloaded.values["min"] as? Int == Int.min)
      #expect(propertyListValuesEqual(reloaded.values["when"], date))
      #expect(reloaded.values["AppleLanguagesSchemaVersion"] as? Int == 3000)
      let fixtureDate = try #require(reloaded.values["AKLastEmailListRequestDateKey"] as? Date)
      #expect(fixtureDate.timeIntervalSinceReferenceDate == 694900766.426036)
    }
  }

  @Test func aKeyChangedOnDiskSinceLoadingIsNotOverwritten() async throws {
    try await withTemporaryFolder { folder in
      let url = try copy("rectangle-binary.plist", into: folder)
      let file = PropertyListFile(url: url)
      let loaded = try #require(try file.read())
      _ = try file.apply(["lastVersion": .set("93"), "other": .set(1)])
      let onDisk = try Data(contentsOf: url)

      #expect(throws: PropertyListConflictError(file: url, keys: ["lastVersion"])) {
        try file.save(["lastVersion": .set("100"), "hideMenubarIcon": .set(false)], over: loaded)
      }
      #expect(try Data(contentsOf: url) == onDisk, "a refused save writes nothing")

      let merged = try file.save(["hideMenubarIcon": .set(false)], over: loaded)
      #expect(merged.values["lastVersion"] as? String == "93", "the other writer's value stays")
      #expect(merged.values["other"] as? Int == 1)
      #expect(merged.values["hideMenubarIcon"] as? Bool == false)
      #expect(try #require(try file.read()).format == .binary)
    }
  }

  @Test func conflictMessageNamesTheKeys() {
    let error = PropertyListConflictError(
      file: URL(fileURLWithPath: "/p/x.plist"), keys: ["a", "b"])
    #expect(
      error.description
        == "not saved: x.plist changed on disk since it was loaded (keys: a, b); reload it to see the new values"
    )
  }

  @Test func savingThroughASymbolicLinkWritesTheTargetAndKeepsItsMode() async throws {
    try await withTemporaryFolder { folder in
      let target = try copy("finder-binary.plist", into: folder)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
      let link = folder.file("link.plist")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
      let file = PropertyListFile(url: link)
      let loaded = try #require(try file.read())
      _ = try file.save(["GoToField": .set("/var")], over: loaded)

      let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
      #expect(destination == target.path, "the link is still a link to the same file")
      let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
      #expect((attributes[.posixPermissions] as? Int) == 0o600)
      let reloaded = try #require(try PropertyListFile(url: target).read())
      #expect(reloaded.values["GoToField"] as? String == "/var")
      #expect(reloaded.format == .binary)
    }
  }
}
