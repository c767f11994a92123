import Foundation
import ObservableDefaultsTesting

/// A process the driver talks to: lines to its standard input, its standard output read as
/// lines as they come (on a thread of their own), its standard error kept for reports.
final class Agent: @unchecked Sendable {
  /// What the driver calls it in reports (`writer bin#1`, `observer xml`, `python3 helper`).
  let name: String
  let process = Process()
  private let input = Pipe()
  private let lock = NSLock()
  /// The lines printed from index `forgotten` on (earlier ones were dropped: a long run's
  /// observers and helper print millions).
  private var lines: [String] = []
  private var forgotten = 0
  /// The bytes after the last newline (the output thread alone uses it).
  private var partial = Data()
  private var errorText = Data()
  private var outputEnded = false

  /// Starts `executable` with `arguments`, this process's environment with `environment` on top.
  ///
  /// - Throws: The error of `Process.run()`.
  init(name: String, executable: URL, arguments: [String], environment: [String: String] = [:])
    throws
  {
    self.name = name
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    read(output.fileHandleForReading) { [self] chunk in receive(chunk) }
    read(errors.fileHandleForReading) { [self] chunk in
      lock.withLock {
        errorText.append(chunk)
        if errorText.count > 65_536 { errorText = Data(errorText.suffix(32_768)) }
      }
    }
  }

  private func read(_ handle: FileHandle, _ deliver: @escaping @Sendable (Data) -> Void) {
    Thread {
      while case let chunk = handle.availableData, !chunk.isEmpty { deliver(chunk) }
      deliver(Data())
    }.start()
  }

  /// Splits what came into lines; the bytes are searched once each (a line of a few MB comes
  /// in many chunks), with the lock held only to hand the lines over.
  private func receive(_ chunk: Data) {
    var complete: [String] = []
    if var newline = chunk.firstIndex(of: UInt8(ascii: "\n")) {
      partial.append(chunk[..<newline])
      complete.append(String(decoding: partial, as: UTF8.self))
      partial = Data()
      var start = newline + 1
      while let next = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
        newline = next
        complete.append(String(decoding: chunk[start..<newline], as: UTF8.self))
        start = newline + 1
      }
      partial.append(chunk[start...])
    } else {
      partial.append(chunk)
    }
    lock.withLock {
      if chunk.isEmpty { outputEnded = true }
      lines += complete
    }
  }

  /// How many lines it printed so far.
  var lineCount: Int { lock.withLock { forgotten + lines.count } }

  /// The lines it printed from index `start` on (those still kept).
  func lines(from start: Int) -> [String] {
    lock.withLock { kept(from: start) }
  }

  private func kept(from start: Int) -> [String] {
    let first = max(start - forgotten, 0)
    return first < lines.count ? Array(lines[first...]) : []
  }

  /// Drops the lines before index `end`: the driver has read them.
  func forget(before end: Int) {
    lock.withLock {
      let count = min(max(end - forgotten, 0), lines.count)
      lines.removeFirst(count)
      forgotten += count
    }
  }

  /// What it printed on standard error, one line: its `Fatal error` line when it trapped, else
  /// its last three lines.
  var errorTail: String {
    let lines = lock.withLock { String(decoding: errorText, as: UTF8.self) }.split(separator: "\n")
    if let fatal = lines.first(where: {
      $0.contains("Fatal error") || $0.contains("Could not allocate")
    }) {
      return String(fatal)
    }
    return lines.suffix(3).joined(separator: " | ")
  }

  /// Writes `line` and a newline to its standard input; false when it no longer reads (the
  /// driver ignores `SIGPIPE`).
  @discardableResult
  func send(_ line: String) -> Bool {
    let bytes = Array((line + "\n").utf8)
    let descriptor = input.fileHandleForWriting.fileDescriptor
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }

  /// Waits at most `deadline` for a line from index `start` on that `matches`; returns its index
  /// and text, or nil when the output ended or the deadline passed without one.
  func waitForLine(
    from start: Int, within deadline: Duration, where matches: (String) -> Bool
  ) -> (index: Int, line: String)? {
    var found: (Int, String)?
    pollBlocking(within: deadline) {
      let (first, seen, ended) = lock.withLock {
        (max(start, forgotten), kept(from: start), outputEnded)
      }
      if let offset = seen.firstIndex(where: matches) { found = (first + offset, seen[offset]) }
      return found != nil || ended
    }
    return found
  }

  /// Kills it with `SIGKILL` and waits for it.
  func kill() {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// Closes its standard input and waits at most `deadline` for it to exit; kills it after.
  func stop(within deadline: Duration = .seconds(5)) {
    try? input.fileHandleForWriting.close()
    if !pollBlocking(within: deadline, until: { !process.isRunning }) { kill() }
    process.waitUntilExit()
  }

  /// How it ended: nil while it runs, else "exit N" or "signal N".
  var ending: String? {
    guard !process.isRunning else { return nil }
    let reason = process.terminationReason == .uncaughtSignal ? "signal" : "exit"
    return "\(reason) \(process.terminationStatus)"
  }
}
