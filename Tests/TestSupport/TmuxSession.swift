import Foundation
import Testing

/// A detached tmux session on a private server, running one command in a fixed-size window;
/// the test reads the screen with `capture-pane`.
public final class TmuxSession {
  /// Whether tmux can be run here (CI installs it; a fresh machine may lack it).
  public static let isAvailable: Bool = (try? runTmux(["-V"]))?.status == 0

  private let socket = "editor-tests-\(UUID().uuidString.prefix(8))"
  private let name = "editor"

  /// Starts `command` (a shell command line) in a `columns`×`rows` window.
  ///
  /// - Throws: ``TmuxError`` when tmux cannot start the session.
  public init(command: String, columns: Int = 80, rows: Int = 24) throws {
    let result = try tmux([
      "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command,
    ])
    guard result.status == 0 else {
      throw TmuxError(message: "tmux new-session failed: \(result.output)")
    }
  }

  deinit {
    _ = try? tmux(["kill-server"])
    // tmux leaves its server's socket behind (in `$TMUX_TMPDIR/tmux-<uid>`, `/tmp` by
    // default): each session would leave a file there.
    let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
    unlink("\(folder)/tmux-\(getuid())/\(socket)")
  }

  /// Sends keys by their tmux names (`Enter`, `Escape`, `Tab`, `Down`, `C-c`, or literal text).
  public func send(_ keys: String...) throws {
    _ = try tmux(["send-keys", "-t", name] + keys)
  }

  /// Sends `text` literally, character by character (`-7` too: it is not read as an option).
  public func type(_ text: String) throws {
    _ = try tmux(["send-keys", "-t", name, "-l", "--", text])
  }

  /// Changes the window size.
  public func resize(columns: Int, rows: Int) throws {
    _ = try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// The screen's lines now.
  public func screen() throws -> [String] {
    try tmux(["capture-pane", "-p", "-t", name]).output.components(separatedBy: "\n")
  }

  /// The screen's lines now, with the SGR escapes of their attributes and colours.
  public func screenWithAttributes() throws -> [String] {
    try tmux(["capture-pane", "-p", "-e", "-t", name]).output.components(separatedBy: "\n")
  }

  /// Waits until `condition` holds for the screen (up to `deadline`), and returns that screen.
  /// When it never did, records an issue at the caller that shows the last screen, and returns
  /// that screen for the test's own expectations: a test that goes on from a wait that timed
  /// out fails there, not later or never.
  ///
  /// A screen is judged only when two captures in a row agree: ncurses writes a redraw in
  /// pieces, and a capture between them shows a screen the program never meant (a loaded CI
  /// run once saw the new header above the old rows and status lines).
  @discardableResult
  public func waitForScreen(
    within deadline: Duration = Polling.deadline,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([String]) -> Bool
  ) throws -> [String] {
    var lines: [String] = []
    let met = try pollBlocking(within: deadline) {
      let previous = lines
      lines = try screen()
      return lines == previous && condition(lines)
    }
    if !met {
      let screen = lines.joined(separator: "\n")
      Issue.record(
        "The screen did not show what the test waited for within \(deadline):\n\(screen)",
        sourceLocation: sourceLocation)
    }
    return lines
  }

  /// The process id of the command the window runs (its shell `exec`s a single command).
  public func processID() throws -> Int32? {
    let output = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).output
    return Int32(output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Whether the session still exists (its command has not ended).
  public var isRunning: Bool {
    (try? tmux(["has-session", "-t", name]))?.status == 0
  }

  private func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
    try Self.runTmux(["-L", socket, "-f", "/dev/null"] + arguments)
  }

  /// Runs tmux and waits for it. posix_spawn + waitpid rather than `Process`: Foundation's
  /// `waitUntilExit()` never returns for `new-session`, whose server keeps running; and the
  /// child gets a clean signal mask.
  private static func runTmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tmux-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: outputFile) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // The test runner's threads block signals; a tmux server inheriting that mask never exits.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var environment = ProcessInfo.processInfo.environment
    environment["TMUX"] = nil
    environment["LANG"] = environment["LANG"] ?? "C.UTF-8"
    let argv = (["tmux"] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawnp(&pid, "tmux", &actions, &attributes, argv, envp) == 0 else {
      return (127, "tmux could not be started")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let data = (try? Data(contentsOf: outputFile)) ?? Data()
    return ((status >> 8) & 0xff, String(decoding: data, as: UTF8.self))
  }
}

/// tmux did not do what a test asked.
public struct TmuxError: Error {
  /// What failed, with tmux's output.
  public let message: String
}
