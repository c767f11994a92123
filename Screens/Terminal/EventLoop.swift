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
    /// A termination signal that arrived (the loop should end), if any. A terminal that hung
    /// up or closed counts as `SIGHUP`, as the kernel would have sent it to a foreground process.
    var signal: Int32?
  }

  private let pipe: WakePipe
  private let jobs = Mutex<[@MainActor @Sendable () -> Void]>([])
  private let terminalDescriptor: Int32

  /// - Parameter terminalDescriptor: the descriptor keys arrive on (standard input).
  /// - Throws: ``SettingsEditorError/noWakeUpPipe(_:)`` when its pipe cannot be made.
  init(terminalDescriptor: Int32 = STDIN_FILENO) throws(SettingsEditorError) {
    self.terminalDescriptor = terminalDescriptor
    pipe = try WakePipe()
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

  /// Routes `signals` into the loop until ``releaseSignals(_:)``, and lets them and SIGWINCH
  /// (handled by curses) reach the calling thread even when the parent process left them
  /// blocked, so they interrupt `poll`.
  func catchSignals(_ signals: [Int32]) {
    pipe.catchSignals(signals)
    var mask = sigset_t()
    sigemptyset(&mask)
    for number in signals + [SIGWINCH] { sigaddset(&mask, number) }
    pthread_sigmask(SIG_UNBLOCK, &mask, nil)
  }

  /// Drops the termination signals caught so far (those a child process in the foreground was
  /// sent along with this one).
  func discardSignals() {
    _ = pipe.drain()
  }

  /// Gives `signals` back their default action.
  func releaseSignals(_ signals: [Int32]) {
    pipe.releaseSignals(signals)
  }

  /// Blocks until a key, a wake-up, a signal or a resize (which interrupts `poll` with EINTR)
  /// arrives, or `deadline` passes; then returns the posted jobs and any signal. Keys stay in the
  /// terminal for the caller to drain: curses may hold buffered keys `poll` cannot see, so
  /// always drain.
  ///
  /// Main-actor settings objects get their outside changes through ``post(_:)`` (the editor
  /// sets `MainActorDelivery.schedule`), so nothing needs a periodic wake-up; work someone
  /// queued on the main dispatch queue anyway runs at each wake-up.
  @MainActor
  func waitForEvents(until deadline: ContinuousClock.Instant? = nil) -> Wakeup {
    var descriptors = [
      pollfd(fd: terminalDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    _ = poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(until: deadline))
    RunLoop.main.run(until: Date())
    // Without this, a terminal gone away (its window closed while we were in the background)
    // would make every `poll` return at once: a busy loop.
    let hungUp = descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    let signals = pipe.drain() + (hungUp ? [SIGHUP] : [])
    let posted = jobs.withLock { jobs in
      defer { jobs = [] }
      return jobs
    }
    return Wakeup(jobs: posted, signal: signals.first)
  }

  /// The `poll` timeout for `deadline`: -1 (none) without one, else the milliseconds left,
  /// rounded up so the loop does not wake just before it.
  static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
    guard let deadline else { return -1 }
    let left = ContinuousClock.now.duration(to: deadline).components
    let milliseconds =
      left.seconds * 1000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: max(0, milliseconds))
  }
}
