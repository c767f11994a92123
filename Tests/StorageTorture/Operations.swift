import Foundation
import ObservableDefaultsTesting

/// The keys and values steps write.
enum Pool {
  /// Plain keys (also the ones `plutil` writes: no dots, which it reads as key paths).
  static let plainKeys = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
  /// Pairs of keys equal as Swift `String`s (canonically equivalent) but not as scalars:
  /// property-list files, python's plistlib and Apple's Foundation keep both.
  static let normalisationPairs = [
    ("caf\u{E9}", "cafe\u{301}"), ("\u{C5}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m"),
    ("\u{212B}", "\u{C5}"),
  ]
  static let unicodeKeys = normalisationPairs.flatMap { [$0.0, $0.1] }
  static let allKeys = plainKeys + unicodeKeys
  /// Strings with characters XML 1.0 cannot carry, and carriage returns.
  static let controlStrings = [
    "a\u{1}b", "esc\u{1B}[0m", "nul\u{0}end", "line\rreturn", "crlf\r\nend",
  ]

  static func hex(_ key: String) -> String { ValueCode.hex(key.utf8) }
  static func string(_ text: String) -> String { "s" + ValueCode.hex(text.utf8) }
  /// A string of `count` copies of `letter` (ASCII).
  static func repeated(_ letter: Character, _ count: Int) -> String {
    "u\(count)x" + ValueCode.hex(String(letter).utf8)
  }
}

extension Driver {
  /// Runs one step of `operation`: the writes, then the checks of every suite it wrote.
  func run(_ operation: Operation) {
    self.operation = operation
    counts.operations[operation, default: 0] += 1
    let began = ContinuousClock.now
    violationsThisStep = 0
    defer {
      if violationsThisStep > printedViolationsPerStep {
        say(
          "  … and \(violationsThisStep - printedViolationsPerStep) more violations at step \(step)"
        )
      }
      if isVerbose { say("step \(step) \(operation.rawValue): \(ContinuousClock.now - began)") }
    }
    var written: Set<String> = []
    switch operation {
    case .write: written = [plainWrite()]
    case .normalisation: written = [normalisationWrites()]
    case .controlCharacters: written = [controlCharacterWrite()]
    case .concurrentWrites: written = [concurrentWrites()]
    case .kill: written = [killDuringWrite()]
    case .ioFailure: written = [ioFailureWrite()]
    case .allocationFailure: written = [allocationFailureWrite()]
    case .diskFull: written = diskFullWrite()
    case .oversize: written = [oversizeWrite()]
    case .foreignReplace, .foreignTruncateWrite, .plutil: written = [foreignWrite(operation)]
    case .foreignInPlaceLocked: written = [inPlaceRewrite(locked: true)]
    case .foreignInPlaceRace: written = [inPlaceRewrite(locked: false)]
    case .spliceRace: written = [spliceRace()]
    }
    for name in written.sorted() {
      guard let suite = suites[name] else { continue }
      check(suite)
      restore(suite)
    }
  }

  // MARK: Choices

  func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }
  func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
  /// The binary or the XML suite.
  func mainSuite() -> Suite { suites[pick(["bin", "xml"])]! }

  /// A small value's code: a string (sometimes non-ASCII), an integer, a Boolean, data, or a
  /// nested dictionary with an array.
  func smallValue() -> String {
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
      let letters = (0..<Int.random(in: 1...12, using: &random)).map { _ in
        pick(Array("abcdefghijklmnopqrstuvwxyz "))
      }
      return Pool.string(String(letters))
    case 1: return "i\(Int.random(in: -1_000_000...1_000_000, using: &random))"
    case 2: return chance(50) ? "t" : "f"
    case 3:
      return "d"
        + ValueCode.hex(
          (0..<Int.random(in: 0...8, using: &random)).map { _ in
            UInt8.random(in: 0...255, using: &random)
          })
    case 4:
      return Pool.string(pick(["caf\u{E9}", "cafe\u{301}", "\u{1F600} emoji", "\u{4E2D}\u{6587}"]))
    default:
      let n = Int.random(in: 0...99, using: &random)
      return
        "{k\(Pool.hex("flag"))=t,k\(Pool.hex("list"))=[i\(n),\(Pool.string("two")),{k\(Pool.hex("deep"))=f}]}"
    }
  }

  /// A value for a plain write: mostly small, sometimes 64 KiB–2 MiB.
  func anyValue() -> String {
    chance(15)
      ? Pool.repeated(pick(["a", "b", "q"]), Int.random(in: 65_536...2_000_000, using: &random))
      : smallValue()
  }

  // MARK: Our writers

  private func plainWrite() -> String {
    let suite = chance(15) ? (suites["full"] ?? mainSuite()) : mainSuite()
    let slot = Int.random(in: 0...1, using: &random)
    let key = Pool.hex(pick(Pool.allKeys))
    switch Int.random(in: 0..<10, using: &random) {
    case 0, 1:
      perform("remove \(key)", on: suite, slot: slot, changes: [(key, nil)])
    case 2:
      // Often to the key's other form in normalisation (equal as Swift `String`s).
      let pair = Pool.normalisationPairs.first { Pool.hex($0.0) == key || Pool.hex($0.1) == key }
      let new =
        pair.map { Pool.hex($0.0) == key ? Pool.hex($0.1) : Pool.hex($0.0) }
        .flatMap { chance(50) ? $0 : nil } ?? Pool.hex(pick(Pool.allKeys))
      guard new != key else { fallthrough }
      let value = suite.lastValues[key] ?? smallValue()
      perform(
        "rename \(key) \(new) \(value)", on: suite, slot: slot, changes: [(key, nil), (new, value)])
    case 3:
      perform("sync", on: suite, slot: slot, changes: [])
    default:
      let value = suite.name == "full" ? smallValue() : anyValue()
      perform("set \(key) \(value)", on: suite, slot: slot, changes: [(key, value)])
    }
    return suite.name
  }

  private func normalisationWrites() -> String {
    let suite = mainSuite()
    let (composed, decomposed) = pick(Pool.normalisationPairs)
    for (slot, key) in [(0, composed), (1, decomposed)] {
      let value = smallValue()
      perform(
        "set \(Pool.hex(key)) \(value)", on: suite, slot: slot, changes: [(Pool.hex(key), value)])
    }
    let other = Pool.hex(pick(Pool.plainKeys))
    let value = smallValue()
    perform(
      "set \(other) \(value)", on: suite, slot: Int.random(in: 0...1, using: &random),
      changes: [(other, value)])
    return suite.name
  }

  private func controlCharacterWrite() -> String {
    let suite = mainSuite()
    let key = Pool.hex(pick(Pool.plainKeys))
    let value = Pool.string(pick(Pool.controlStrings))
    perform("set \(key) \(value)", on: suite, slot: 0, changes: [(key, value)])
    return suite.name
  }

  private func concurrentWrites() -> String {
    let suite = mainSuite()
    let keys = Pool.plainKeys.shuffled(using: &random)
    var pending: [(Agent, Int, Int, Int, [(String, String?)])] = []
    for slot in 0...1 {
      guard let writer = writer(suite, slot) else { continue }
      for key in keys[(slot * 4)..<(slot * 4 + 4)] {
        let value = smallValue()
        suite.touch(Pool.hex(key))
        let (id, from) = send("set \(Pool.hex(key)) \(value)", to: writer)
        pending.append((writer, slot, id, from, [(Pool.hex(key), value)]))
      }
    }
    for (writer, slot, id, from, changes) in pending {
      record(
        answer(id, from: from, of: writer), of: "set (concurrent)", on: suite, slot: slot,
        changes: changes)
    }
    return suite.name
  }

  private func killDuringWrite() -> String {
    let suite = mainSuite()
    let slot = Int.random(in: 0...1, using: &random)
    let key = Pool.hex(pick(Pool.allKeys))
    let value =
      chance(50)
      ? smallValue() : Pool.repeated("k", Int.random(in: 100_000...3_000_000, using: &random))
    suite.touch(key)
    guard let writer = writer(suite, slot) else { return suite.name }
    let (id, from) = send("set \(key) \(value)", to: writer)
    let delay = Duration.microseconds(Int.random(in: 0...40_000, using: &random))
    let acknowledged = pollBlocking(within: delay) {
      writer.lines(from: from).contains("ack \(id)")
    }
    retire(suite, slot)
    counts.kills += 1
    if acknowledged || writer.lines(from: from).contains("ack \(id)") {
      suite.model.acknowledged(key, value)
      counts.acknowledged += 1
    } else {
      suite.model.indeterminate(key, value)
    }
    return suite.name
  }

  private func ioFailureWrite() -> String {
    let suite = chance(25) ? (suites["full"] ?? mainSuite()) : mainSuite()
    let point = pick([
      "posix/io/rw/write", "posix/io/rw/pwrite", "posix/io/sync/fsync", "posix/io/dir/rename",
      // close too: libfiu fails it without closing (Linux always closes), and a descriptor left
      // open must not keep its flock (the writer would then wait for itself).
      "posix/io/oc/open", "posix/io/oc/close", "posix/io/rw/read", "posix/io/rw/*",
    ])
    let key = Pool.hex(pick(Pool.allKeys))
    let value = suite.name == "full" ? smallValue() : anyValue()
    counts.injectedFailures += 1
    perform("fiu \(point) 0.5 set \(key) \(value)", on: suite, slot: 1, changes: [(key, value)])
    return suite.name
  }

  private func allocationFailureWrite() -> String {
    let suite = mainSuite()
    let key = Pool.hex("large")
    let value = Pool.repeated("m", 3_000_000)
    counts.injectedFailures += 1
    perform("alloc 2097152 set \(key) \(value)", on: suite, slot: 0, changes: [(key, value)])
    return suite.name
  }

  private func diskFullWrite() -> Set<String> {
    guard let suite = suites["full"] else { return [] }
    let key = Pool.hex("big")
    let value = Pool.repeated("f", Int.random(in: 200_000...1_200_000, using: &random))
    perform("set \(key) \(value)", on: suite, slot: 0, changes: [(key, value)])
    check(suite)
    restore(suite)
    perform("remove \(key)", on: suite, slot: 1, changes: [(key, nil)])
    return [suite.name]
  }

  private func oversizeWrite() -> String {
    guard let suite = suites["bin"] else { return "bin" }
    let key = Pool.hex("huge")
    // Data, not a string: the same size for the limit, a copy instead of a scan of every byte.
    let value = "z\(270 << 20)x68"
    perform(
      "set \(key) \(value)", on: suite, slot: 0, changes: [(key, value)], within: .seconds(300))
    retire(suite, 0)
    check(suite, within: .seconds(15))
    restore(suite)
    counts.foreignWrites += 1
    suite.touch(key)
    let answer = helperRequest(["replace", suite.path, key, "-"], within: .seconds(300))
    if answer.first == "done" {
      suite.model.acknowledged(key, nil)
    } else {
      suite.model.indeterminate(key, nil)
    }
    return suite.name
  }

  // MARK: Foreign writers

  private func foreignWrite(_ operation: Operation) -> String {
    let suite = mainSuite()
    let plain = pick(Pool.plainKeys)
    let key = Pool.hex(operation == .plutil ? plain : pick(Pool.allKeys))
    let value =
      operation == .plutil ? Pool.string(plain + "-by-plutil") : (chance(20) ? "-" : smallValue())
    suite.touch(key)
    counts.foreignWrites += 1
    let done: Bool
    switch operation {
    case .plutil:
      guard let plutil = workspace.plutil else { return suite.name }
      counts.processes += 1
      for key in suite.model.rewrittenByFoundation(asXML: suite.format == "xml") {
        suite.touch(key)
      }
      done = Workspace.run(
        plutil, ["-replace", plain, "-string", plain + "-by-plutil", suite.path])
    default:
      let command = operation == .foreignReplace ? "replace" : "truncwrite"
      done = helperRequest([command, suite.path, key, value]).first == "done"
    }
    let code: String? = value == "-" ? nil : value
    if done { suite.model.acknowledged(key, code) } else { suite.model.indeterminate(key, code) }
    return suite.name
  }

  /// python3 rewrites the file in place while one of our writers writes another key: with the
  /// lock slowly (emptied, left empty 0.7 s, then 12 pieces 20 ms apart), and both writes must
  /// stay; without it at once (one `pwrite`, then `ftruncate`; half the time 50–300 ms apart,
  /// our write starting between them: a shorter text leaves the old one's tail after `</plist>`
  /// meanwhile), and either write may be lost (python read the file before our writer replaced
  /// it), but nothing else may change. (An unlocked program that
  /// leaves the file empty for longer than a reader's half-written retries could lose every key:
  /// the empty file is then what is on disk.)
  private func inPlaceRewrite(locked: Bool) -> String {
    let suite = mainSuite()
    let keys = Pool.plainKeys.shuffled(using: &random)
    let (theirs, ours) = (Pool.hex(keys[0]), Pool.hex(keys[1]))
    let (theirValue, ourValue) = (smallValue(), anyValue())
    suite.touch(theirs)
    counts.foreignWrites += 1
    // Unlocked, half the time with a pause of 50-300 ms before the cut, our write starting in it.
    let pause = !locked && chance(50) ? Int.random(in: 50...300, using: &random) : 0
    let request = helperSend([
      "inplace", suite.path, locked ? "1" : "0", theirs, theirValue, locked ? "1" : "0",
      "\(pause)",
    ])
    if pause > 0 { helperProgress(request, "written") }
    // Locked, a process opens the suite while the file is empty, and another writes beside it.
    let reader = locked && helperProgress(request, "emptied") ? startFirstReader(suite) : nil
    let (theirOld, ourOld) = (suite.lastValues[theirs], suite.lastValues[ours])
    let outcome = perform(
      "set \(ours) \(ourValue)", on: suite, slot: Int.random(in: 0...1, using: &random),
      changes: [(ours, ourValue)])
    let theirsDone = helperAnswer(request).first == "done"
    if let reader {
      checkFirstRead(
        reader, of: suite,
        allowing: [
          theirs: theirsDone ? [theirValue] : [theirOld, theirValue], ours: [ourOld, ourValue],
        ])
    }
    if theirsDone, locked {
      suite.model.acknowledged(theirs, theirValue)
    } else {
      suite.model.indeterminate(theirs, theirValue)
    }
    if !locked, outcome == .acknowledged {
      suite.model.indeterminate(ours, suite.lastValues[ours])
    }
    return suite.name
  }

  /// See ``Operation/spliceRace``: the writer writes two string keys and synchronizes (its
  /// version is confirmed at once: its clock says the file's times are 10 s old); within the same
  /// second python makes the entry before the second key two bytes longer and takes two bytes of
  /// white space out after it, in place (same size, same times on 1-second timestamps); the
  /// writer writes the second key again.
  private func spliceRace() -> String {
    guard let suite = suites["xml"] else { return "xml" }
    let keys = Pool.plainKeys.shuffled(using: &random)
    let (first, second) = (Pool.hex(keys[0]), Pool.hex(keys[1]))
    let values = [
      Pool.string("first \(Int.random(in: 0...9, using: &random))"),
      Pool.string("the second \(Int.random(in: 0...9, using: &random))"),
    ]
    for (key, value) in zip([first, second], values) {
      guard
        perform("set \(key) \(value)", on: suite, slot: 2, changes: [(key, value)]) == .acknowledged
      else { return suite.name }
    }
    guard perform("sync", on: suite, slot: 2, changes: []) == .acknowledged else {
      return suite.name
    }
    counts.foreignWrites += 1
    let shifted = helperRequest(["shift", suite.path, second]).first?.split(separator: " ") ?? []
    if shifted.count == 3 {
      suite.touch(String(shifted[1]))
      suite.model.acknowledged(String(shifted[1]), String(shifted[2]))
    }
    let value = Pool.string("second \(Int.random(in: 0...999, using: &random))")
    perform("set \(second) \(value)", on: suite, slot: 2, changes: [(second, value)])
    return suite.name
  }
}
