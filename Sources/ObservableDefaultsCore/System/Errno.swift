#if canImport(Glibc)
  import Glibc
#endif

/// A system call's error number (`errno`), as the wrappers of this folder throw it. Its
/// constants have swift-system's names (`Errno.noSuchFileOrDirectory`, …).
///
/// Its ``description`` is the C library's message (`strerror`): "Permission denied", "No such
/// file or directory".
package struct Errno: Error, Equatable, CustomStringConvertible {
  /// The number, as `<errno.h>` names it.
  package let rawValue: Int32

  package init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The error of the system call that just failed on this thread.
  package static var current: Errno { Errno(rawValue: errno) }

  /// `EINTR`: a signal interrupted the call (it is made again).
  package static let interrupted = Errno(rawValue: EINTR)
  /// `EWOULDBLOCK` (`EAGAIN` on Linux): nothing to read yet on a non-blocking descriptor, or a
  /// lock held elsewhere.
  package static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
  /// `ENOENT`: no such file or folder.
  package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// `EEXIST`: the file or folder exists.
  package static let fileExists = Errno(rawValue: EEXIST)
  /// `ELOOP`: a symbolic link where none is followed, or a loop of them.
  package static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
  /// `ENODATA`: the file has no extended attribute of that name.
  static let noData = Errno(rawValue: ENODATA)

  /// The C library's message for the number (`strerror(3)`), as `perror` prints it.
  package var description: String { String(cString: strerror(rawValue)) }

  /// Runs `call` (a system call returning -1 on failure) again while a signal interrupts it.
  ///
  /// - Returns: The call's result, when it is not -1.
  /// - Throws: The error of the failed call.
  @discardableResult
  static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno)
    -> Result
  {
    while true {
      let result = call()
      if result != -1 { return result }
      let error = Errno.current
      if error != .interrupted { throw error }
    }
  }
}
