import Foundation
import ObservableDefaults

/// dconf/GSettings, what Linux users would otherwise use, measured on the same machine in the
/// same run: its command-line tools on a private session bus (`dbus-run-session`), every file in
/// a folder of the workspace (`XDG_CONFIG_HOME`, `XDG_RUNTIME_DIR`, `XDG_CACHE_HOME`, `HOME`).
struct DconfBaseline {
  /// The seconds dconf took, per step; nil when a step failed (dconf cannot load 100,000 keys:
  /// D-Bus times out).
  struct Result {
    /// `dconf load` of every key (one program writing them all).
    var load: Double?
    /// `dconf dump` of the folder (a new process reading every key).
    var open: Samples?
    /// `dconf write` of one key (a new process).
    var set: Samples?
    /// `dconf write` started → `dconf watch` prints the change.
    var change: Samples?
    /// `dconf read` of one key, and `settings-editor read` of one key of a suite of as many
    /// keys (new processes).
    var read: (dconf: Samples, ours: Samples)?
    /// `dconf write` of one key, and `settings-editor write` of one key of that suite.
    var write: (dconf: Samples, ours: Samples)?
  }

  /// The `settings-editor` measured: `$SETTINGS_EDITOR` (such as the one `scripts/install`
  /// installs), else the one built beside this program (`swift build -c release`).
  static var editor: URL {
    if let path = ProcessInfo.processInfo.environment["SETTINGS_EDITOR"] {
      return URL(fileURLWithPath: path)
    }
    return Worker.executable.deletingLastPathComponent().appendingPathComponent("settings-editor")
  }

  let workspace: Workspace
  /// The programs the measure runs.
  static let tools = ["/usr/bin/dconf", "/usr/bin/dbus-run-session", "/usr/libexec/dconf-service"]

  /// Installs dconf-cli, libglib2.0-bin, dconf-service and dbus when one of ``tools`` is missing
  /// (as root, with apt-get; otherwise stops with the command to run).
  static func installIfMissing() {
    guard tools.contains(where: { !FileManager.default.isExecutableFile(atPath: $0) }) else {
      return
    }
    let install = "apt-get update && apt-get install -y dconf-cli libglib2.0-bin dconf-service dbus"
    guard getuid() == 0 else { abort("dconf is missing: run `sudo sh -c '\(install)'`") }
    FileHandle.standardError.write(Data("benchmarks: installing dconf (\(install))\n".utf8))
    guard SpawnedProgram.run("/bin/sh", ["-c", install]) == 0 else {
      abort("could not install dconf")
    }
  }

  /// Measures a dconf folder of `keys` keys: the load, 3 dumps, 5 writes and `changes` changes.
  func run(keys: Int, changes: Int) -> Result {
    let folder = workspace.folder.appendingPathComponent("dconf-\(keys)")
    let runtime = folder.appendingPathComponent("run")
    do {
      try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
      try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
    } catch { abort("cannot create \(runtime.path): \(error)") }
    let report = folder.appendingPathComponent("report.txt")
    var environment = ProcessInfo.processInfo.environment
    for (name, path) in [
      ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"), ("HOME", "home"),
      ("XDG_RUNTIME_DIR", "run"),
    ] {
      environment[name] = folder.appendingPathComponent(path).path
    }
    let status = SpawnedProgram.run(
      "/usr/bin/dbus-run-session",
      ["--", Worker.executable.path, "dconf-worker", "\(keys)", "\(changes)", report.path],
      environment: environment, errors: folder.appendingPathComponent("bus.log"))
    // The bus is gone, but a dconf-service still loading keys (100,000 time out) would keep a
    // core busy through the measures that follow.
    Self.stopServices(runningIn: runtime)
    guard status == 0, let text = try? String(contentsOf: report, encoding: .utf8) else {
      abort("the dconf worker failed (status \(status)); see \(folder.path)/bus.log")
    }
    var result = Result()
    var steps: [Substring: Samples] = [:]
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      let values = fields.dropFirst().compactMap { Double($0) }
      let samples = values.isEmpty ? nil : Samples(values)
      steps[fields.first ?? ""] = samples
      switch fields.first {
      case "load": result.load = values.first
      case "open": result.open = samples
      case "set": result.set = samples
      case "change": result.change = samples
      default: break
      }
    }
    if let dconf = steps["read"], let ours = steps["editor-read"] { result.read = (dconf, ours) }
    if let dconf = steps["write"], let ours = steps["editor-write"] { result.write = (dconf, ours) }
    return result
  }

  /// Worker mode `dconf-worker <keys> <changes> <report>`, run on a private bus: the steps of
  /// ``run(keys:changes:)``, one line per step in the report (`load 1.23`, `set 0.004 …`); a
  /// step that fails ends the report.
  static func runWorker(keys: Int, changes: Int, report: String) {
    var lines: [String] = []
    defer {
      _ = FileManager.default.createFile(
        atPath: report, contents: Data(lines.joined(separator: "\n").utf8))
    }
    let keyFile = URL(fileURLWithPath: report).deletingLastPathComponent().appendingPathComponent(
      "keys.ini")
    var text = "[/]\n"
    for index in 0..<keys { text += "\(EditorMeasure.key(index))='value \(index) xxxxxxxxxx'\n" }
    guard FileManager.default.createFile(atPath: keyFile.path, contents: Data(text.utf8)) else {
      return
    }

    var start = monotonicNanoseconds()
    guard SpawnedProgram.run("/usr/bin/dconf", ["load", "/bench/"], input: keyFile) == 0 else {
      return
    }
    lines.append("load \(seconds(since: start))")
    let dumps = (0..<3).map { _ in
      start = monotonicNanoseconds()
      _ = SpawnedProgram.run("/usr/bin/dconf", ["dump", "/bench/"])
      return seconds(since: start)
    }
    lines.append("open " + dumps.map { "\($0)" }.joined(separator: " "))
    let writes = (0..<5).map { index in
      start = monotonicNanoseconds()
      _ = SpawnedProgram.run(
        "/usr/bin/dconf", ["write", "/bench/\(EditorMeasure.key(2))", "'set-\(index)'"])
      return seconds(since: start)
    }
    lines.append("set " + writes.map { "\($0)" }.joined(separator: " "))
    lines.append("change " + watchLatencies(changes).map { "\($0)" }.joined(separator: " "))
    lines += commandLineSteps(keys: keys)
  }

  /// One key read and written by `dconf` and by `settings-editor` (in a suite of `keys` keys in
  /// this worker's preferences folder), 20 new processes each, interleaved.
  private static func commandLineSteps(keys: Int) -> [String] {
    let suite = PreferencesDirectory.fileURL(forSuite: "bench.cli")
    try? FileManager.default.createDirectory(
      at: suite.deletingLastPathComponent(), withIntermediateDirectories: true)
    EditorMeasure.writeSuite(at: suite, keys: keys, valueLength: 20)
    let key = EditorMeasure.key(2)
    let commands: [(step: String, program: String, arguments: [String])] = [
      ("read", "/usr/bin/dconf", ["read", "/bench/\(key)"]),
      ("editor-read", editor.path, ["read", "bench.cli", key]),
      ("write", "/usr/bin/dconf", ["write", "/bench/\(key)", "'cli'"]),
      ("editor-write", editor.path, ["write", "bench.cli", key, "-string", "cli"]),
    ]
    var times = [String: [Double]]()
    for _ in 0..<20 {
      for command in commands {
        let start = monotonicNanoseconds()
        _ = SpawnedProgram.run(command.program, command.arguments)
        times[command.step, default: []].append(seconds(since: start))
      }
    }
    return commands.map { command in
      command.step + " " + (times[command.step] ?? []).map { "\($0)" }.joined(separator: " ")
    }
  }

  /// `dconf write` of `/bench/name` started → `dconf watch /bench/` prints it, `changes` times
  /// after 3 unmeasured.
  private static func watchLatencies(_ changes: Int) -> [Double] {
    let watch = Process()
    watch.executableURL = URL(fileURLWithPath: "/usr/bin/dconf")
    watch.arguments = ["watch", "/bench/"]
    let output = Pipe()
    watch.standardOutput = output
    do { try watch.run() } catch { return [] }
    defer {
      watch.terminate()
      watch.waitUntilExit()
    }
    var buffer = Data()
    var latencies: [Double] = []
    for index in 0..<(changes + 3) {
      let value = "'change-\(index)'"
      let start = monotonicNanoseconds()
      // The watcher may subscribe a moment after it starts: repeat the first write until seen.
      var seen = false
      for attempt in 0..<(index == 0 ? 50 : 1) where !seen {
        if attempt > 0 { usleep(100_000) }
        _ = SpawnedProgram.run("/usr/bin/dconf", ["write", "/bench/name", value])
        seen = waitFor(
          Data(value.utf8), in: output.fileHandleForReading, buffer: &buffer,
          timeout: index == 0 ? 0.1 : 60)
      }
      guard seen else { return latencies }
      if index >= 3 { latencies.append(seconds(since: start)) }
    }
    return latencies
  }

  /// Reads `handle` into `buffer` until it contains `needle` (then drops what came before and
  /// including it); false after `timeout` seconds.
  private static func waitFor(
    _ needle: Data, in handle: FileHandle, buffer: inout Data, timeout: Double
  ) -> Bool {
    let deadline = monotonicNanoseconds() + UInt64(timeout * 1e9)
    while true {
      if let range = buffer.range(of: needle) {
        buffer.removeSubrange(buffer.startIndex..<range.upperBound)
        return true
      }
      let now = monotonicNanoseconds()
      guard now < deadline else { return false }
      var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, Int32((deadline - now) / 1_000_000) + 1) > 0 else { continue }
      let chunk = handle.availableData
      if chunk.isEmpty { return false }
      buffer.append(chunk)
    }
  }

  /// Ends every process whose `XDG_RUNTIME_DIR` is `runtime` (the worker's dconf-service) and
  /// waits up to 5 s for each to go.
  private static func stopServices(runningIn runtime: URL) {
    let marker = Data("XDG_RUNTIME_DIR=\(runtime.path)\u{0}".utf8)
    let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for pid in processes.compactMap({ pid_t($0) }) {
      guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
        environment.range(of: marker) != nil
      else { continue }
      kill(pid, SIGTERM)
      let deadline = Date(timeIntervalSinceNow: 5)
      while kill(pid, 0) == 0, Date() < deadline { usleep(10_000) }
      if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
    }
  }
}
