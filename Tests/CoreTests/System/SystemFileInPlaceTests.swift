import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// An administrator who edits a system file in place (a shell redirection, an editor without
/// atomic save) leaves it empty or cut short for a moment; programs that follow the file must
/// not take that moment for the file's contents: their observers would hear of every default or
/// mandatory value going and coming back, and a mandatory key would be writable meanwhile.
@Suite struct SystemFileInPlaceTests {
  @Test(arguments: [false, true])
  func anInPlaceRewriteOfASystemFileTellsOnlyTheKeyThatChanged(mandatory: Bool) async throws {
    let machine = try SystemDefaultsTests.Machine()
    let file =
      mandatory
      ? machine.mandatoryFile(in: machine.first) : machine.defaultsFile(in: machine.first)
    let values = Dictionary(uniqueKeysWithValues: (0..<100).map { ("key\($0)", "value \($0)") })
    try machine.write(values, to: file)
    let replacement = machine.folder.file("replacement.plist")
    try foundationWrite(values.merging(["key7": "seven"]) { $1 }, to: replacement, format: .xml)
    let defaults = machine.defaults()
    let log = DefaultsChangeLog()
    let observation = defaults.observe(log.handler)
    defer { observation.cancel() }

    for round in 0..<4 {
      #expect(try InPlaceRewrite.run(file, from: replacement, round: round))
      #expect(await poll { defaults.string(forKey: "key7") == "seven" }, "round \(round)")
      try foundationWrite(values, to: file, format: .xml)
      #expect(await poll { defaults.string(forKey: "key7") == "value 7" }, "round \(round)")
    }
    // Observers heard of key7 alone, never of the other 99 keys going and coming back (two
    // changes that reach them close together may be told as one).
    #expect(Set(log.all.flatMap(\.keys)) == ["key7"])
    #expect(defaults.objectIsForced(forKey: "key42") == mandatory)
  }

  /// A system file an administrator removes is read again after the pauses before its values
  /// go (a program that deletes the file before creating it again leaves no file for a moment),
  /// and then they go.
  @Test func aRemovedSystemFileStillTakesItsValuesAway() async throws {
    let machine = try SystemDefaultsTests.Machine()
    try machine.write(["locked": "yes"], to: machine.mandatoryFile(in: machine.first))
    let defaults = machine.defaults()
    #expect(defaults.objectIsForced(forKey: "locked"))
    try FileManager.default.removeItem(at: machine.mandatoryFile(in: machine.first))
    #expect(await poll { !defaults.objectIsForced(forKey: "locked") })
    #expect(defaults.object(forKey: "locked") == nil)
  }

  /// A program that starts while an administrator rewrites the mandatory file in place (it is
  /// empty for a moment) reads it again before it takes it for empty: a one-shot write of a
  /// mandatory key went through in that moment (exit 0 where 77 was due).
  @Test func aNewProgramWaitsForAMandatoryFileBeingWrittenInPlace() async throws {
    let machine = try SystemDefaultsTests.Machine()
    let file = machine.mandatoryFile(in: machine.first)
    try machine.write(["age": 30], to: file)
    let whole = try Data(contentsOf: file)
    try Data().write(to: file)
    let retries = PropertyListCounters.counts(for: file).halfWrittenRetries
    let (suite, folders) = (machine.suite, [machine.first])
    // Off Swift's cooperative pool, which a full run keeps busy for minutes: the reader on a
    // thread of its own, and the rest of the write from another once the reader is seen
    // pausing; long pauses, so that it lands during them however slow the machine.
    let system = try await onOwnThread {
      let writer = Thread {
        if pollBlocking(until: {
          PropertyListCounters.counts(for: file).halfWrittenRetries > retries
        }) {
          try? whole.write(to: file)
        }
      }
      writer.start()
      return PropertyListFile.$halfWrittenPauses.withValue([2_000_000, 10_000_000, 10_000_000]) {
        SystemDefaults(suite: suite, folders: folders)
      }
    }
    #expect(system.mandatory["age"]?.value as? Int == 30)
    #expect(system.problems == [])
  }

  /// A mandatory file that an administrator emptied for good is taken as empty, after the
  /// pauses.
  @Test func anEmptiedMandatoryFileIsEmptyAfterThePauses() throws {
    let machine = try SystemDefaultsTests.Machine()
    let file = machine.mandatoryFile(in: machine.first)
    try machine.write(["age": 30], to: file)
    try Data().write(to: file)
    let retries = PropertyListCounters.counts(for: file).halfWrittenRetries
    let system = SystemDefaults(suite: machine.suite, folders: [machine.first])
    #expect(system.mandatory.isEmpty)
    #expect(system.problems == [])
    #expect(PropertyListCounters.counts(for: file).halfWrittenRetries == retries + 3)
  }

  /// A system file that is a symbolic link into another folder is followed there: an edit of
  /// the file it leads to reaches running programs, and so does pointing the link elsewhere.
  @Test func anEditOfALinkedSystemFilesTargetIsFollowed() async throws {
    let machine = try SystemDefaultsTests.Machine()
    let shipped = machine.folder.file("shipped")
    let (first, second) = (
      shipped.appendingPathComponent("a.plist"), shipped.appendingPathComponent("b.plist")
    )
    try machine.write(["theme": "light"], to: first)
    try machine.write(["theme": "sepia"], to: second)
    try FileManager.default.createSymbolicLink(
      at: machine.defaultsFile(in: machine.first), withDestinationURL: first)
    let defaults = machine.defaults()
    #expect(defaults.string(forKey: "theme") == "light")

    try foundationWrite(["theme": "dark"], to: first)
    #expect(await poll { defaults.string(forKey: "theme") == "dark" })
    // Pointed elsewhere as `ln -sfn` does it: a new link renamed over the old one.
    let link = machine.defaultsFile(in: machine.first)
    let newLink = link.appendingPathExtension("new")
    try FileManager.default.createSymbolicLink(at: newLink, withDestinationURL: second)
    #expect(rename(newLink.path, link.path) == 0)
    #expect(await poll { defaults.string(forKey: "theme") == "sepia" })
    try foundationWrite(["theme": "blue"], to: second)
    #expect(await poll { defaults.string(forKey: "theme") == "blue" })
  }
}
