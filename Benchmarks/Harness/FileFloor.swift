import Foundation
import Glibc

/// The floor of a file write: `bytes` written to a new file beside `target`, `fsync`, and
/// `rename` over `target` (what a safe write of that many bytes must at least do). Stops the run
/// on any failure.
func writeFsyncRename(_ bytes: some ContiguousBytes, to target: String) {
  let temporary = target + ".new"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  guard descriptor >= 0 else { abort("open \(temporary): errno \(errno)") }
  let (written, count) = bytes.withUnsafeBytes {
    (write(descriptor, $0.baseAddress, $0.count), $0.count)
  }
  guard written == count, fsync(descriptor) == 0, close(descriptor) == 0,
    rename(temporary, target) == 0
  else { abort("floor: errno \(errno)") }
}
