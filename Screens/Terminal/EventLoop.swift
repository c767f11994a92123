import Foundation
import Synchronization

/// The editor's one loop: waits in `poll()` on the terminal and a ``WakePipe``, then hands
/// out keys, jobs posted from other threads, and caught termination signals.
///
/// Everything that touches curses or the rows runs on the thread that calls ``run(keys:step:)``;
/// other threads only ``post(_:)`` work or ``wake()`` the loop.
final class EventLoop: Sendable {
  /// What woke the loop, in the order it is handled.
  struct Wakeup {
    /// Jobs other threads posted.
    var jobs: [@MainActor @Sendable () -> Void]
    /// A termination signal that arrived (the loop should end), if any.
    var signal: Int32?
  }

  private let pipe = WakePipe()
  private let jobs = Mutex<[@MainActor @Sendable () -> Void]>([])
  private let terminalDescriptor: Int32

  /// - Parameter terminalDescriptor: the descriptor keys arrive on (standard input).
  init(terminalDescriptor: Int32 = STDIN_FILENO) {
    self.terminalDescriptor = terminalDescriptor
  }

  /// Wakes the loop; safe from any thread.
  func wake() {
    pipe.wake()
  }

  /// Runs `job` on the loop's thread at its next turn; safe from any thread.
  func post(_ job: @escaping @MainActor @Sendable () -> Void) {
    jobs.withLock { $0.append(job) }
    pipe.wake()
  }

  /// Routes `signals` into the loop until ``releaseSignals(_:)``.
  func catchSignals(_ signals: [Int32]) {
    pipe.catchSignals(signals)
  }

  /// Gives `signals` back their default action.
  func releaseSignals(_ signals: [Int32]) {
    pipe.releaseSignals(signals)
  }

  /// How long `poll` waits before the loop drains the main dispatch queue anyway: settings
  /// classes isolated to the main actor receive outside changes through that queue, which
  /// cannot wake `poll`.
  static let mainQueueInterval: Int32 = 100

  /// Blocks until a key, a wake-up, a signal or a resize (which interrupts `poll` with EINTR)
  /// arrives, or ``mainQueueInterval`` milliseconds pass; runs what waits in the main dispatch
  /// queue; then returns the posted jobs and any signal. Keys stay in the terminal for the
  /// caller to drain: curses may hold buffered keys `poll` cannot see, so always drain.
  @MainActor
  func waitForEvents() -> Wakeup {
    var descriptors = [
      pollfd(fd: terminalDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    _ = poll(&descriptors, nfds_t(descriptors.count), Self.mainQueueInterval)
    RunLoop.main.run(until: Date())
    let signals = pipe.drain()
    let posted = jobs.withLock { jobs in
      defer { jobs = [] }
      return jobs
    }
    return Wakeup(jobs: posted, signal: signals.first)
  }
}
