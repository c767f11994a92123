import Foundation
import ObservableDefaultsTesting
import TestSupport
import Testing

/// What a one-shot command and a user's smallest settings program pay at start and exit, counted:
/// the libraries the dynamic loader maps (`LD_DEBUG=files`: an engine's client library only when
/// a store uses that engine) and the waits between a program's output and its `exit_group`
/// (`strace -f`: none when nothing is left to finish).
@Suite struct ProgramStartExitTests {
  /// The sync engines' client libraries and what they bring (OpenSSL, protobuf-c).
  static let engineLibraries = ["libnats", "libcurl", "libssl", "libcrypto", "libprotobuf-c"]

  /// The libraries the dynamic loader mapped for `program` run with `arguments`, by file name:
  /// those of the program's start, and those from the first `dlopen` (`dynamically loaded by`)
  /// on, with the libraries they need.
  static func loadedLibraries(
    _ program: URL, _ arguments: [String], environment: [String: String?]
  ) throws -> (atStart: Set<String>, loadedLater: Set<String>) {
    var variables = environment
    variables["LD_DEBUG"] = "files"
    let result = try ChildProcess.run(program, arguments, environment: variables)
    var atStart: Set<String> = []
    var loadedLater: Set<String> = []
    for line in result.error.split(separator: "\n") {
      guard let start = line.range(of: "file="), let end = line.range(of: " [") else { continue }
      let name = String(line[start.upperBound..<end.lowerBound])
      if line.contains("dynamically loaded by") || !loadedLater.isEmpty {
        loadedLater.insert(name)
      } else {
        atStart.insert(name)
      }
    }
    return (atStart, loadedLater)
  }

  static func engineFiles(_ names: Set<String>) -> [String] {
    names.filter { name in engineLibraries.contains { name.hasPrefix($0 + ".") } }.sorted()
  }

  @Test func readAndWriteMapNoEngineLibrary() throws {
    let folder = try TemporaryFolder(prefix: "program-start")
    let editor = try ChildProcess.builtProgram("settings-editor")
    let environment = programEnvironment(in: folder)
    let write = try Self.loadedLibraries(
      editor, ["write", "com.example.start", "name", "Ada"], environment: environment)
    let read = try Self.loadedLibraries(
      editor, ["read", "com.example.start", "name"], environment: environment)
    for run in [write, read] {
      #expect(!run.atStart.isEmpty, "LD_DEBUG=files printed no library")
      #expect(Self.engineFiles(run.atStart) == [])
      #expect(run.loadedLater == [])
    }
    #expect(read.atStart == write.atStart)
  }

  /// ncurses (libncursesw and the libtinfo it needs) is loaded when the editor first draws, not
  /// at the start of a verb: its bindings (both are built with `BIND_NOW`) were a tenth of the
  /// dynamic loader's work in a one-key `read`.
  @Test func readAndWriteLoadNoCurses() throws {
    let folder = try TemporaryFolder(prefix: "program-start")
    let editor = try ChildProcess.builtProgram("settings-editor")
    let environment = programEnvironment(in: folder)
    let runs = [
      try Self.loadedLibraries(
        editor, ["write", "com.example.start", "name", "Ada"], environment: environment),
      try Self.loadedLibraries(
        editor, ["read", "com.example.start", "name"], environment: environment),
    ]
    for run in runs {
      #expect(run.atStart.contains("libc.so.6"), "LD_DEBUG=files printed no libc")
      let curses = run.atStart.union(run.loadedLater).filter {
        $0.hasPrefix("libncursesw.") || $0.hasPrefix("libtinfo.")
      }
      #expect(curses == [])
    }
  }

  /// The same count sees an engine's library when a store uses it: `cloud status` of a NATS
  /// configuration loads libnats and its OpenSSL with `dlopen`, not at start.
  @Test func aNATSStoreLoadsLibnatsWhenUsed() throws {
    let folder = try TemporaryFolder(prefix: "program-start")
    let editor = try ChildProcess.builtProgram("settings-editor")
    let status = try Self.loadedLibraries(
      editor, ["cloud", "status"],
      environment: programEnvironment(
        in: folder, adding: ["OBSERVABLE_DEFAULTS_NATS_SERVERS": "nats://127.0.0.1:1"]))
    #expect(Self.engineFiles(status.atStart) == [])
    #expect(status.loadedLater.contains("libnats.so.3.4"))
    #expect(Self.engineFiles(status.loadedLater).contains { $0.hasPrefix("libssl.") })
  }

  /// The waits of `program`'s main thread between its last output (a `write`: standard output,
  /// the change history; or the `rename` of a file it wrote) and its `exit_group` (blocking
  /// `futex` waits, sleeps, `poll`s with a time limit), its standard output line buffered
  /// (`stdbuf -oL`) so that the exit hooks run after it is written.
  static func waitsAfterOutput(
    _ program: URL, _ arguments: [String], environment: [String: String?],
    in folder: TemporaryFolder
  ) throws -> (output: String, waits: [String]) {
    let trace = folder.file("strace-\(UUID().uuidString)")
    let result = try ChildProcess.runCommand(
      "strace",
      [
        "-f", "-o", trace.path, "-e",
        "trace=execve,write,exit_group,futex,nanosleep,clock_nanosleep,poll,ppoll,select,"
          + "pselect6,epoll_wait,epoll_pwait,wait4,waitid,rename",
        "stdbuf", "-oL", program.path,
      ] + arguments, environment: environment)
    #expect(result.status == 0, "\(result.error)")
    let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
    // The program's main thread: the process that runs `execve` (stdbuf execs the program in
    // place). Not the first line's: a thread the runtime started may make the first call traced.
    let main = try #require(
      lines.first { $0.contains(" execve(") }.flatMap { $0.split(separator: " ").first })
    // strace pads a process id to five columns: "1236  write(…" as well as "12345 write(…".
    let ours = lines.filter { $0.hasPrefix(main + " ") }.map {
      $0.dropFirst(main.count).drop { $0 == " " }
    }
    // A call another thread's call interrupted in the trace is two lines, `write(… <unfinished
    // ...>` and `<... write resumed>) = 10`.
    let isOutput = { (call: Substring) in
      ["write(", "rename(", "<... write resumed>", "<... rename resumed>"].contains {
        call.hasPrefix($0)
      }
    }
    let lastOutput = try #require(
      ours.lastIndex(where: isOutput),
      "no output of \(main) in the trace: \(lines.prefix(5) + ["…"] + lines.suffix(30))")
    let exit = try #require(ours.lastIndex { $0.hasPrefix("exit_group(") })
    let waits = ours[lastOutput..<exit].filter { call in
      if call.hasPrefix("futex(") { return call.contains("FUTEX_WAIT") }
      if call.hasPrefix("poll(") || call.hasPrefix("ppoll(") || call.hasPrefix("epoll") {
        return !call.contains(", 0)") && !call.contains("{tv_sec=0, tv_nsec=0}")
      }
      return !isOutput(call)
    }.map(String.init)
    return (result.output, waits)
  }

  @Test func nothingWaitsBetweenOutputAndExit() throws {
    let folder = try TemporaryFolder(prefix: "program-exit")
    let editor = try ChildProcess.builtProgram("settings-editor")
    let environment = programEnvironment(in: folder)
    let write = try Self.waitsAfterOutput(
      editor, ["write", "com.example.exit", "name", "Ada"], environment: environment, in: folder)
    #expect(write.waits == [])
    let read = try Self.waitsAfterOutput(
      editor, ["read", "com.example.exit", "name"], environment: environment, in: folder)
    #expect(read.output == "Ada\n")
    #expect(read.waits == [])
    // A settings object's program whose schema publishing is off: its exit hooks (the suite's
    // flush, the schema publisher's) have nothing to finish.
    let minimal = try Self.waitsAfterOutput(
      try ChildProcess.builtProgram("minimal-defaults"), [],
      environment: programEnvironment(
        in: folder, adding: ["OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS": "0"]),
      in: folder)
    #expect(minimal.output == "Fatbobman\n")
    #expect(minimal.waits == [])
  }

  /// The system calls `calls` of `program` (`strace -f -ttt`) made within `window` seconds of
  /// its `execve`, as (process id, call) in order, and the process id of its main thread.
  static func callsAtStart(
    _ program: URL, tracing calls: String, window: Double, environment: [String: String?],
    in folder: TemporaryFolder
  ) throws -> (main: Substring, calls: [(process: Substring, call: Substring)]) {
    let trace = folder.file("strace-\(UUID().uuidString)")
    let result = try ChildProcess.runCommand(
      "strace", ["-f", "-ttt", "-o", trace.path, "-e", "trace=execve," + calls, program.path],
      environment: environment)
    #expect(result.status == 0, "\(result.error)")
    // "12345 1765012345.123456 call(…": process id, seconds, call.
    let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
    }.filter { $0.count == 3 }
    let start = try #require(lines.first { $0[2].hasPrefix("execve(") })
    let end = try #require(Double(start[1])) + window
    return (
      start[0],
      lines.filter { Double($0[1]).map { $0 < end } ?? false }.map { ($0[0], $0[2]) }
    )
  }

  /// ``programEnvironment(in:adding:)`` with schema publishing on (a child publishes none
  /// unless told), into the folder's `XDG_DATA_HOME`.
  static func publishingEnvironment(in folder: TemporaryFolder) -> [String: String?] {
    var environment = programEnvironment(in: folder)
    environment["OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS"] = .some(nil)
    return environment
  }

  /// A settings program that exits within 0.1 s of its start adds no inotify watch (closing an
  /// inotify descriptor that holds one makes the exit wait for the kernel) and starts one thread
  /// (Dispatch's event thread), not one more to publish its schema: the exiting thread
  /// publishes it.
  @Test func aProgramThatExitsRightAwayAddsNoWatchAndPublishesOnItsOwnThread() throws {
    let folder = try TemporaryFolder(prefix: "program-start")
    let environment = Self.publishingEnvironment(in: folder)
    let (main, calls) = try Self.callsAtStart(
      try ChildProcess.builtProgram("minimal-defaults"),
      tracing: "clone,clone3,inotify_add_watch,rename", window: 0.1,
      environment: environment, in: folder)
    #expect(calls.filter { $0.call.hasPrefix("inotify_add_watch(") }.map(\.call) == [])
    let threads = calls.filter { $0.call.hasPrefix("clone3(") || $0.call.hasPrefix("clone(") }
    #expect(threads.count <= 1, "\(threads.map(\.call))")
    let publishing = calls.filter { $0.call.hasPrefix("rename(") && $0.call.contains("schemas") }
    #expect(publishing.allSatisfy { $0.process == main }, "\(publishing)")
    let schemas = folder.file("XDG_DATA_HOME").appendingPathComponent("ObservableDefaults/schemas")
    let published = FileManager.default.enumerator(atPath: schemas.path)?.allObjects ?? []
    #expect(published.contains { ($0 as? String)?.hasSuffix(".plist") == true }, "\(published)")
  }

  /// A program whose schema is already published reads it and neither writes nor locks it: it
  /// published at its first run only.
  @Test func aSchemaAlreadyPublishedIsNotLocked() throws {
    let folder = try TemporaryFolder(prefix: "program-start")
    let environment = Self.publishingEnvironment(in: folder)
    let program = try ChildProcess.builtProgram("minimal-defaults")
    #expect(try ChildProcess.run(program, [], environment: environment).status == 0)
    let (_, calls) = try Self.callsAtStart(
      program, tracing: "openat,rename", window: 3600, environment: environment, in: folder)
    let schemaFiles = calls.map(\.call).filter { $0.contains("/ObservableDefaults/schemas/") }
    #expect(schemaFiles.contains { $0.contains(".plist\", O_RDONLY") }, "\(schemaFiles)")
    #expect(schemaFiles.filter { $0.contains(".lock") || $0.hasPrefix("rename(") } == [])
  }

  /// The files under a schema folder (`…/ObservableDefaults/schemas`) that `settings-editor`
  /// run with `arguments` opened or looked at (`strace -f`: `openat`, `stat`s, directory reads).
  static func schemaFilesOpened(
    by arguments: [String], environment: [String: String?], in folder: TemporaryFolder
  ) throws -> [String] {
    let trace = folder.file("strace-\(UUID().uuidString)")
    let result = try ChildProcess.runCommand(
      "strace",
      [
        "-f", "-o", trace.path, "-e", "trace=%file",
        try ChildProcess.builtProgram("settings-editor").path,
      ]
        + arguments, environment: environment)
    #expect(result.status == 0 || arguments.contains("missing"), "\(result.error)")
    return try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains("/ObservableDefaults/schemas") }.map(String.init)
  }

  /// `read` of a key a file holds reads no published schema; the schemas are read only for a key
  /// no file holds (its default may be in one).
  @Test func readLooksAtSchemasOnlyForAKeyNoFileHolds() throws {
    let folder = try TemporaryFolder(prefix: "program-start")
    let environment = programEnvironment(in: folder)
    let write = try ChildProcess.run(
      try ChildProcess.builtProgram("settings-editor"),
      ["write", "com.example.schemas", "name", "Ada"],
      environment: environment)
    #expect(write.status == 0, "\(write.error)")
    let stored = try Self.schemaFilesOpened(
      by: ["read", "com.example.schemas", "name"], environment: environment, in: folder)
    #expect(stored == [])
    let missing = try Self.schemaFilesOpened(
      by: ["read", "com.example.schemas", "missing"], environment: environment, in: folder)
    #expect(!missing.isEmpty)
  }

  /// `write` lists the schema folders once: for the stored form of the value and for the check
  /// of the value against the schema that lists the key (it listed them twice, each listing a
  /// tenth of a one-shot write's instructions).
  @Test func writeListsEachSchemaFolderOnce() throws {
    let folder = try TemporaryFolder(prefix: "program-start")
    let environment = programEnvironment(in: folder)
    let listings = try Self.schemaFilesOpened(
      by: ["write", "com.example.schemas", "name", "Ada"], environment: environment, in: folder
    ).filter { $0.contains("O_DIRECTORY") }.compactMap { line in
      line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first
        .map(String.init)
    }
    #expect(!listings.isEmpty)
    #expect(listings.count == Set(listings).count, "\(listings)")
  }
}
