import Foundation
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// `read <suite> <key>` decodes only the key's value of a binary suite, and still checks the
/// whole file: what the whole read refuses, it refuses with the same message and status, and a
/// key held twice reads as its first value, as the whole read gives it. It waits for a writer
/// that holds the suite's lock.
@Suite(.serialized) struct OneKeyReadVerbTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  private func suiteFile(_ suite: String) -> URL {
    editor.preferences.appendingPathComponent(suite + ".plist")
  }

  @Test func aBinarySuiteWithABadEntryAfterTheKeyIsRefusedAsAWholeRead() throws {
    // {"a": "one", "b": <ASCII string with a byte above 0x7F>}
    try BinaryPropertyListBytes.file([
      [0xD2, 1, 2, 3, 4], [0x51, UInt8(ascii: "a")], [0x51, UInt8(ascii: "b")],
      [0x53] + Array("one".utf8), [0x51, 0xE9],
    ]).write(to: suiteFile("verbs.bad-entry"))
    let whole = try editor.run("read", "verbs.bad-entry")
    #expect(whole.status == 65)
    #expect(whole.error.contains("is not a valid property list"), "\(whole.error)")
    for arguments in [["read", "verbs.bad-entry", "a"], ["read-type", "verbs.bad-entry", "a"]] {
      let oneKey = try editor.run(arguments)
      #expect(oneKey.status == 65, "\(arguments)")
      #expect(oneKey.error == whole.error, "\(arguments)")
      #expect(oneKey.output == "", "\(arguments)")
    }
  }

  /// `read` while another program holds the suite's lock and rewrites it in place (empty for a
  /// moment) prints what that program wrote, not "does not exist": it waits for the lock.
  @Test func aReadDuringALockedRewriteInPlacePrintsTheRewrittenValue() throws {
    let url = suiteFile("verbs.rewritten")
    let text = try PropertyListSerialization.data(
      fromPropertyList: ["a": "rewritten"], format: .binary, options: 0)
    try text.write(to: url)
    let lockURL = FileLock.url(guarding: url)
    let lock = try FileLock(url: lockURL, guarding: url)
    close(open(url.path, O_WRONLY | O_TRUNC))
    let reader = try editor.start(["read", "verbs.rewritten", "a"])
    // The file is written again once the reader waits on the lock (has the lock file open).
    #expect(
      pollBlocking { !openDescriptors(of: lockURL, inProcess: reader.processIdentifier).isEmpty })
    try text.write(to: url)  // Foundation writes in place, the same file.
    lock.release()
    let read = EditorProcess.Result(reader.finish())
    #expect(read.status == 0, "\(read.error)")
    #expect(read.output == "rewritten\n")
  }

  @Test func aKeyHeldTwiceInABinarySuiteReadsAsItsFirstValue() throws {
    // {"a": "one", "a": "two", "b": "three"}
    try BinaryPropertyListBytes.file([
      [0xD3, 1, 1, 2, 3, 4, 5], [0x51, UInt8(ascii: "a")], [0x51, UInt8(ascii: "b")],
      [0x53] + Array("one".utf8), [0x53] + Array("two".utf8), [0x55] + Array("three".utf8),
    ]).write(to: suiteFile("verbs.twice"))
    #expect(try editor.run("read", "verbs.twice", "a").output == "one\n")
    #expect(try editor.run("read", "verbs.twice", "b").output == "three\n")
    let absent = try editor.run("read", "verbs.twice", "c")
    #expect(absent.status == 1)
    #expect(absent.error == "settings-editor: the key c does not exist in suite verbs.twice\n")
  }
}
