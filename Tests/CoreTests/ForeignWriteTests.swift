import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Another program's writes are never missed, then overwritten, whatever the file system's
/// timestamps can tell, and never read half-done.
@Suite struct ForeignWriteTests {
  /// Rewrites `url` in place (same inode, no truncation) with `old` replaced by `new` of the same
  /// length, as `rsync --inplace`, a database or an editor without atomic save would.
  private func rewriteInPlace(_ url: URL, replacing old: String, with new: String) throws {
    let text = try String(contentsOf: url, encoding: .utf8)
    let bytes = Array(text.replacingOccurrences(of: old, with: new).utf8)
    #expect(bytes.count == text.utf8.count)
    let descriptor = open(url.path, O_WRONLY)
    #expect(descriptor >= 0)
    #expect(pwrite(descriptor, bytes, bytes.count, 0) == bytes.count)
    close(descriptor)
  }

  /// The trials of one file system: each flushes, lets another program rewrite one value in place
  /// at once, then flushes another key; the other program's value must survive on disk and reach
  /// memory. Returns how many trials kept the file's whole identity (the case metadata cannot
  /// tell).
  private func sameSizeRewrites(in folder: URL, trials: Int) async throws -> Int {
    var identityKept = 0
    for trial in 0..<trials {
      let url = folder.appendingPathComponent("suite-\(trial).plist")
      let defaults = PropertyListDefaults(fileURL: url)
      defaults.set("xxxx", forKey: "theirs")
      defaults.set(0, forKey: "mine")
      try defaults.flush()
      let before = FileIdentity.ofFile(atPath: url.path)
      try rewriteInPlace(url, replacing: "<string>xxxx</string>", with: "<string>yyyy</string>")
      if FileIdentity.ofFile(atPath: url.path) == before { identityKept += 1 }
      defaults.set(1, forKey: "mine")
      try defaults.flush()
      let stored = try foundationRead(url)
      #expect(stored["theirs"] as? String == "yyyy", "trial \(trial)")
      #expect(stored["mine"] as? Int == 1, "trial \(trial)")
      #expect(await poll { defaults.string(forKey: "theirs") == "yyyy" }, "trial \(trial)")
    }
    return identityKept
  }

  @Test func aSameSizeRewriteInPlaceIsSeenAndNotOverwrittenOnTmpfs() async throws {
    let folder = try TemporaryFolder(
      at: URL(fileURLWithPath: "/dev/shm/foreign-writes-\(UUID().uuidString)"))
    _ = try await sameSizeRewrites(in: folder.url, trials: 10)
  }

  @Test(.enabled(if: CoarseTimestampFolder.isAvailable, "mounting an ext4 image needs root"))
  func aSameSizeRewriteInTheSameSecondIsSeenAndNotOverwrittenOnExt4WithSecondTimestamps()
    async throws
  {
    let folder = try CoarseTimestampFolder()
    let identityKept = try await sameSizeRewrites(in: folder.url, trials: 5)
    // The rewrites landed within the second of the flush (all 5 on a quiet machine; one that
    // crossed a second boundary is told by its timestamps): metadata alone could not tell.
    #expect(identityKept >= 1)
  }

  /// How another program rewrites the suite `a` alpha, `b` bravo, `c` charlie, `d` delta in place
  /// during a flush (issue 37, item 1): the text replacements it makes.
  enum RewriteDuringFlush: String, CaseIterable, Sendable {
    case sameLayout, entriesShifted, fourBytesLonger, twoBytesShorter

    var replacements: [(old: String, new: String)] {
      switch self {
      case .sameLayout: [("bravo", "BRAVO")]
      // The same size, every entry from `b` on two bytes further.
      case .entriesShifted: [("alpha", "alpha++"), ("delta", "del")]
      case .fourBytesLonger: [("bravo", "bravo1234")]
      case .twoBytesShorter: [("bravo", "bra")]
      }
    }
  }

  /// A flush of a version confirmed long ago, with another program's in-place rewrite forced
  /// between the moment the flush took the file's identity and its read of the bytes: the flush
  /// must splice only into bytes it verified. Before, it spliced at the places of the old text
  /// (`</ke<string>ours</string>ing>`: no reader could read any key again) or kept its old
  /// value of `b` for good, and returned success.
  @Test(arguments: RewriteDuringFlush.allCases)
  func aFlushNeverSplicesIntoBytesAnotherProgramRewroteDuringIt(_ rewrite: RewriteDuringFlush)
    async throws
  {
    let folder = try TemporaryFolder()
    let url = folder.file("race.plist")
    let defaults = PropertyListDefaults(fileURL: url)
    let start = ["a": "alpha", "b": "bravo", "c": "charlie", "d": "delta"]
    for (key, value) in start { defaults.set(value, forKey: key) }
    try defaults.flush()
    // Once the timestamps settled, a re-read confirms the version: from then on its identity
    // tells it from any later version, but not bytes written after the identity was taken.
    #expect(
      await poll {
        FileIdentity.ofFile(atPath: url.path)?.isSettled(at: FileIdentity.now()) == true
      }
    )
    #expect(defaults.synchronize())
    var expected = start
    var text = try String(contentsOf: url, encoding: .utf8)
    for (old, new) in rewrite.replacements {
      text = text.replacingOccurrences(
        of: "<string>\(old)</string>", with: "<string>\(new)</string>")
      expected[start.first { $0.value == old }!.key] = new
    }
    let rewritten = Array(text.utf8)
    ReadInterruption.schedule(at: url) {
      let descriptor = open(url.path, O_WRONLY)
      _ = pwrite(descriptor, rewritten, rewritten.count, 0)
      _ = ftruncate(descriptor, off_t(rewritten.count))
      close(descriptor)
    }
    defaults.set("ours", forKey: "c")
    expected["c"] = "ours"
    try defaults.flush()
    // The other program's values (written only by the interruption) and ours.
    #expect(try PythonPlistlib.strings(url) == expected)
    #expect(await poll { expected.allSatisfy { defaults.string(forKey: $0.key) == $0.value } })
  }

  @Test func aVersionIsConfirmedByItsBytesUntilItsTimestampsSettle() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("version.plist")
    let file = PropertyListFile(url: url)
    var known: PropertyListSnapshot?
    _ = try file.apply(["a": .set("1")], known: &known)
    var version = try #require(known?.version)
    #expect(!version.isConfirmed)
    let confirmations = PropertyListCounters.counts(for: url).confirmations
    #expect(file.isStill(&version))
    #expect(file.isStill(&version))
    // Written a moment ago: not settled, so each check reads and hashes the bytes again.
    #expect(!version.isConfirmed)
    #expect(PropertyListCounters.counts(for: url).confirmations == confirmations + 2)
    // Settled once the clock is more than 3 s past both times (a later write then changes them).
    var now = FileIdentity.now()
    #expect(!version.identity.isSettled(at: now))
    now.tv_sec += 4
    #expect(version.identity.isSettled(at: now))
    // A version whose bytes differ is not the file, whatever its identity says.
    var other = try #require(known?.version)
    other.contentHash &+= 1
    #expect(!file.isStill(&other))
  }

  /// An XML suite of keys `key<n>` = `value <n>` open in this process with an observer, and a
  /// file of its values with some changed, for another program to write in its place.
  private struct ObservedSuite {
    let url: URL
    let values: [String: String]
    let defaults: PropertyListDefaults
    let log = DefaultsChangeLog()
    let observation: ObservationToken
    let replacement: URL

    init(in folder: TemporaryFolder, keys count: Int, changing changes: [String: String]) throws {
      url = folder.file("suite.plist")
      values = Dictionary(uniqueKeysWithValues: (0..<count).map { ("key\($0)", "value \($0)") })
      try foundationWrite(values, to: url, format: .xml)
      defaults = PropertyListDefaults(fileURL: url)
      observation = defaults.observe(log.handler)
      replacement = folder.file("replacement.plist")
      try foundationWrite(values.merging(changes) { $1 }, to: replacement, format: .xml)
    }
  }

  @Test func anInPlaceTruncateThenWriteNeverReadsAsEveryKeyRemoved() async throws {
    let folder = try TemporaryFolder()
    let suite = try ObservedSuite(in: folder, keys: 100, changing: ["key7": "seven"])
    defer { suite.observation.cancel() }
    let (url, values, defaults, log, replacement) = (
      suite.url, suite.values, suite.defaults, suite.log, suite.replacement
    )
    for round in 0..<5 {
      #expect(try InPlaceRewrite.run(url, from: replacement, round: round))
      #expect(await poll { defaults.string(forKey: "key7") == "seven" }, "round \(round)")
      #expect(
        values.keys.allSatisfy { defaults.persistentValue(forKey: $0) != nil }, "round \(round)")
      try foundationWrite(values, to: url, format: .xml)
      #expect(await poll { defaults.string(forKey: "key7") == "value 7" }, "round \(round)")
    }
    // Observers heard of key7 alone, never of the other 99 keys going and coming back, and no
    // write was refused as malformed.
    let keys = Set(log.changes(from: .otherProcess).flatMap(\.keys))
    #expect(keys == ["key7"])
    #expect(defaults.lastError == nil)
    defaults.set(true, forKey: "written")
    try defaults.flush()
  }

  /// A writer that reads the file while another program writes it in place without the lock
  /// (here the write lands between the writer's look at the file's identity and its read of the
  /// bytes) reads the file a second time while its times are recent, compares, and reads it
  /// anew instead of writing into bytes it cannot tell from a mix of two versions: a write begun
  /// just before the read and ended during it leaves the new text up to some point and the old
  /// one after it, which can parse (storage-torture seeds 4299, 5002 and 5003 kept such mixes).
  /// Both ways a writer reads: the one-shot write's splice and `apply`.
  @Test(arguments: [true, false])
  func aWriterReadsAgainAFileWrittenInPlaceWhileItReadIt(oneShot: Bool) throws {
    let folder = try TemporaryFolder()
    let url = folder.file("torn.plist")
    try PythonPlistlib.write([("theirs", "old"), ("kept", "value")], to: url, binary: true)
    let rewrite = folder.file("rewrite.plist")
    try PythonPlistlib.write(
      [("theirs", "new value"), ("kept", "value")], to: rewrite, binary: true)
    let rewritten = Array(try Data(contentsOf: rewrite))
    ReadInterruption.schedule(at: url) {
      let descriptor = open(url.path, O_WRONLY)
      _ = pwrite(descriptor, rewritten, rewritten.count, 0)
      close(descriptor)
    }
    let file = PropertyListFile(url: url)
    if oneShot {
      #expect(try !file.write(["ours": .set("x")]))
    } else {
      _ = try file.apply(["ours": .set("x")])
    }
    let counts = PropertyListCounters.counts(for: url)
    // The mixed read and the read after it, each read again once; `apply` pauses before
    // reading again, the splice leaves the file to `apply`.
    #expect(counts.tornReadChecks == 2)
    #expect(counts.halfWrittenRetries == (oneShot ? 0 : 1))
    #expect(
      try PythonPlistlib.strings(url) == ["theirs": "new value", "kept": "value", "ours": "x"])
  }

  /// Another program that takes the suite's lock (`flock` on `.<name>.lock`, as ``FileLock``
  /// does) and rewrites the file in place slowly: it empties it, waits 0.8 s (longer than the
  /// pauses for a half-written file), then appends the new text in 512-byte pieces, closing the
  /// file after each (every close is a change notice).
  static let slowLockedRewriter = """
    import fcntl, os, sys, time
    path, text = sys.argv[1], open(sys.argv[2], 'rb').read()
    folder, name = os.path.split(path)
    lock = os.open(os.path.join(folder, '.' + name + '.lock'), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    os.close(os.open(path, os.O_WRONLY | os.O_TRUNC))
    time.sleep(0.8)
    for start in range(0, len(text), 512):
        piece = os.open(path, os.O_WRONLY | os.O_APPEND)
        os.write(piece, text[start:start + 512])
        os.close(piece)
        time.sleep(0.03)
    fcntl.flock(lock, fcntl.LOCK_UN)
    """

  @Test func observersAreToldOnlyOfTheKeysAForeignWriterHoldingTheLockChanged() async throws {
    let folder = try TemporaryFolder()
    let suite = try ObservedSuite(
      in: folder, keys: 300, changing: ["key0": "zero", "key299": "two hundred and ninety-nine"])
    defer { suite.observation.cancel() }
    let (url, defaults, log, replacement) = (
      suite.url, suite.defaults, suite.log, suite.replacement
    )
    let rewrite = try ChildProcess.runCommand(
      "python3", ["-c", Self.slowLockedRewriter, url.path, replacement.path])
    #expect(rewrite.status == 0, "\(rewrite.error)")
    #expect(await poll { defaults.string(forKey: "key299") == "two hundred and ninety-nine" })
    #expect(defaults.synchronize())
    // Each changed key told once; none of the 298 others (they were told removed and added
    // back: the file was read while the other program held the lock).
    #expect(log.changes(from: .otherProcess).flatMap(\.keys).sorted() == ["key0", "key299"])
    #expect(defaults.string(forKey: "key0") == "zero")
    #expect(defaults.lastError == nil)
  }

  /// Another writer that takes the suite's lock after a re-read looked for it and found none,
  /// then empties the file before the re-read reads it and writes it again 0.8 s later (longer
  /// than the pauses for a half-written file): the re-read's next attempt waits for that lock, so
  /// observers are told only of the key the writer changed. The storage torture test met this
  /// race: observers were told of all 311 keys of a suite, removed and then added back.
  @Test func aReReadWaitsForAWriterThatTookTheLockAfterItLooked() async throws {
    let folder = try TemporaryFolder()
    let suite = try ObservedSuite(in: folder, keys: 300, changing: ["key0": "zero"])
    defer { suite.observation.cancel() }
    let (url, defaults, log) = (suite.url, suite.defaults, suite.log)
    let text = try Data(contentsOf: suite.replacement)
    // At the re-read's first read, after it looked for a writer's lock.
    ReadInterruption.schedule(at: url) {
      guard let lock = try? FileLock(url: FileLock.url(guarding: url), guarding: url) else {
        return
      }
      close(open(url.path, O_WRONLY | O_TRUNC))
      Thread.detachNewThread {
        Thread.sleep(forTimeInterval: 0.8)
        try? text.write(to: url)  // Foundation writes in place, the same file.
        lock.release()
      }
    }
    let renamed = folder.file("renamed.plist")
    try FileManager.default.copyItem(at: suite.replacement, to: renamed)
    #expect(rename(renamed.path, url.path) == 0)
    #expect(await poll { defaults.string(forKey: "key0") == "zero" })
    #expect(defaults.synchronize())
    #expect(log.changes(from: .otherProcess).flatMap(\.keys).sorted() == ["key0"])
    #expect(defaults.string(forKey: "key299") == "value 299")
  }

  /// A suite opened while another program holds the file's lock and rewrites it in place (the
  /// file empty for a moment) starts with the values that program wrote, not with none: its
  /// first read waits for the lock as a re-read does.
  @Test func aSuiteOpenedDuringALockedRewriteInPlaceReadsTheRewrittenValues() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("suite.plist")
    let text = try PropertyListSerialization.data(
      fromPropertyList: ["key0": "new", "key1": "kept"], format: .xml, options: 0)
    try text.write(to: url)
    let lockURL = FileLock.url(guarding: url)
    let lock = try FileLock(url: lockURL, guarding: url)
    close(open(url.path, O_WRONLY | O_TRUNC))
    Thread.detachNewThread {
      // Once the suite's first read waits on the lock (its descriptor of the lock file, beside
      // the writer's), the file is written again.
      pollBlocking { openDescriptors(of: lockURL).count >= 2 }
      try? text.write(to: url)  // Foundation writes in place, the same file.
      lock.release()
    }
    let defaults = PropertyListDefaults(fileURL: url)
    #expect(defaults.string(forKey: "key0") == "new")
    #expect(defaults.string(forKey: "key1") == "kept")
  }

  /// A reader's shared lock on the lock file a killed writer left is released even when a copy
  /// of its descriptor outlives the close (one a forked child inherited, or one a failed `close`
  /// left open, as libfiu makes it in storage-torture's `io-failure` step): this process's next
  /// writer locks at once instead of waiting for itself for good.
  @Test func aLockWhoseDescriptorOutlivesItsCloseIsReleased() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("suite.plist")
    let lockURL = FileLock.url(guarding: url)
    #expect(FileManager.default.createFile(atPath: lockURL.path, contents: nil))
    let reader = ReaderLock(guarding: url)
    let copy = try #require(Self.copyOfDescriptor(of: lockURL))
    defer { _ = close(copy) }
    reader.release()
    // A thread of its own: without the release it waits in flock(2) until `copy` is closed.
    let written = NSCondition()
    nonisolated(unsafe) var isWritten = false
    Thread {
      _ = try? PropertyListFile(url: url).apply(["k": .set(1)])
      written.withLock { isWritten = true }
    }.start()
    #expect(await poll(within: .seconds(5)) { written.withLock { isWritten } })
    #expect(try foundationRead(url)["k"] as? Int == 1)
  }

  /// A new descriptor of the open file description this process has open at `url`
  /// (`dup(2)`), or nil.
  private static func copyOfDescriptor(of url: URL) -> Int32? {
    openDescriptors(of: url).first.map { dup($0) }
  }

  @Test func aNewSuitesFirstWriteMakesNoPause() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("new.plist")
    let defaults = PropertyListDefaults(fileURL: url)
    defaults.set(1, forKey: "first")
    try defaults.flush()
    #expect(try foundationRead(url)["first"] as? Int == 1)
    // The missing file is looked for once more, at once: no pause for a half-written file.
    #expect(PropertyListCounters.counts(for: url).halfWrittenRetries == 0)
  }

  @Test func aWriteReadsAHalfWrittenFileAgainBeforeReplacingIt() throws {
    let folder = try TemporaryFolder()
    let file = PropertyListFile(url: folder.file("half.plist"))
    var attempts = 0
    // Malformed, then empty, then whole: the writer's read takes the third.
    let isEmpty = { (values: [String: Any]) in values.isEmpty }
    let document = try file.retryingHalfWritten(suspecting: isEmpty) {
      attempts += 1
      switch attempts {
      case 1: throw PropertyListError(file: file.url, kind: .malformed, reason: "cut short")
      case 2: return [String: Any]()
      default: return ["a": 1] as [String: Any]
      }
    }
    #expect(attempts == 3)
    #expect(document["a"] as? Int == 1)
    #expect(PropertyListCounters.counts(for: file.url).halfWrittenRetries == 2)
    // A file that really is malformed is refused after the pauses, and left as it is.
    try Data("<plist><dict><key>a</key>".utf8).write(to: file.url)
    #expect(throws: PropertyListError.self) { try file.apply(["b": .set(2)]) }
    #expect(try Data(contentsOf: file.url) == Data("<plist><dict><key>a</key>".utf8))
  }
}
