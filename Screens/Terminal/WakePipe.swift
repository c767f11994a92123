import Foundation

/// A non-blocking self-pipe that wakes the editor's `poll()` loop from other threads and from
/// signal handlers.
///
/// A wake-up writes byte 0; a caught signal writes its number. Reading drains the pipe and
/// reports the signals seen.
final class WakePipe: Sendable {
  /// The end the loop polls.
  let readDescriptor: Int32
  private let writeDescriptor: Int32

  /// - Throws: ``SettingsEditorError/noWakeUpPipe(_:)`` when `pipe(2)` fails.
  init() throws(SettingsEditorError) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else {
      throw .noWakeUpPipe(String(cString: strerror(errno)))
    }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    readDescriptor = descriptors[0]
    writeDescriptor = descriptors[1]
  }

  deinit {
    close(readDescriptor)
    close(writeDescriptor)
  }

  /// Wakes the loop; safe from any thread. A full pipe already holds a wake-up, so the write
  /// result is not needed.
  func wake() {
    var byte: UInt8 = 0
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Reads everything waiting and returns the signal numbers among it (empty for plain wake-ups).
  func drain() -> [Int32] {
    var signals: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(readDescriptor, &buffer, buffer.count)
      guard count > 0 else { return signals }
      signals += buffer.prefix(count).filter { $0 != 0 }.map(Int32.init)
    }
  }

  /// Routes `signals` into this pipe (as their numbers) instead of their default action, so the
  /// loop can restore the terminal before exiting. One pipe receives signals at a time.
  func catchSignals(_ signals: [Int32]) {
    signalPipeDescriptor = writeDescriptor
    for number in signals {
      signal(number) { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(signalPipeDescriptor, &byte, 1)
      }
    }
  }

  /// Gives `signals` back their default action.
  func releaseSignals(_ signals: [Int32]) {
    for number in signals { signal(number, SIG_DFL) }
    signalPipeDescriptor = -1
  }
}

/// The pipe the signal handler writes to: a C handler cannot capture context, and it only reads
/// this integer and calls write(2), which is async-signal-safe.
nonisolated(unsafe) private var signalPipeDescriptor: Int32 = -1
