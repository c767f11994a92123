import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal whose slave side a worker process draws on, and whose master side this
/// process reads: every byte the worker sends to its "terminal" arrives here and is counted.
final class PseudoTerminal {
  private let master: Int32
  /// The slave side, for the worker's standard input and output.
  let slave: FileHandle
  /// Everything read from the master side so far.
  private(set) var received = Data()

  /// Opens a pseudo-terminal of `rows` × `columns` cells.
  init(rows: Int, columns: Int) {
    // posix_openpt, unlockpt and ptsname are not imported; these are their Linux ioctls.
    let getNumber: UInt = 0x8004_5430  // TIOCGPTN
    let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlocked: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, setLock, &unlocked) == 0,
      ioctl(master, getNumber, &number) == 0
    else {
      abort("no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    let slaveDescriptor = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard slaveDescriptor >= 0 else { abort("cannot open /dev/pts/\(number)") }
    slave = FileHandle(fileDescriptor: slaveDescriptor, closeOnDealloc: true)
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  deinit {
    close(master)
  }

  /// Sends `text` as typed keys.
  func type(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
  }

  /// Reads until the bytes received since `offset` contain `marker` (any byte when it is
  /// empty); returns the time the marker arrived (``monotonicNanoseconds()``), or nil after
  /// `timeout` seconds.
  func read(from offset: Int, until marker: String = "", timeout: Double) -> UInt64? {
    let needle = Data(marker.utf8)
    let deadline = monotonicNanoseconds() + UInt64(timeout * 1e9)
    while !arrived(needle, from: offset) {
      let now = monotonicNanoseconds()
      guard now < deadline,
        readAvailable(waitingMilliseconds: Int32((deadline - now) / 1_000_000) + 1)
      else {
        return nil
      }
    }
    return monotonicNanoseconds()
  }

  private func arrived(_ needle: Data, from offset: Int) -> Bool {
    let tail = received[(received.startIndex + offset)...]
    return needle.isEmpty ? !tail.isEmpty : tail.range(of: needle) != nil
  }

  /// Reads until nothing arrives for `quiet` seconds.
  func readUntilQuiet(_ quiet: Double) {
    while readAvailable(waitingMilliseconds: Int32(quiet * 1000)) {}
  }

  /// Waits up to the given time for bytes and appends them; false when none came (or on EOF).
  private func readAvailable(waitingMilliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, waitingMilliseconds) > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
    guard count > 0 else { return false }
    received.append(contentsOf: chunk[0..<count])
    return true
  }

  /// The distinct screen rows that get text in the bytes from `offset` on: rows that a
  /// cursor-addressing sequence (`ESC [ row ; column H` or `ESC [ row d`) moves to and that a
  /// character follows (after any attribute sequences). A bare move to park the cursor does not
  /// count.
  func rowsWritten(from offset: Int) -> Set<Int> {
    let text = String(decoding: received[(received.startIndex + offset)...], as: UTF8.self)
    let written =
      /\u{1B}\[(\d+)(?:;\d+)?[Hd](?:\u{1B}\[[0-9;?]*[A-Za-z]|\u{1B}\([0-9A-Z])*[^\u{1B}\r\n]/
    return Set(text.matches(of: written).compactMap { Int($0.output.1) })
  }
}
