import Foundation

/// Another program's write of a file in place, as a shell does it: the file is emptied (or cut
/// short) and closed, a change notice, before the whole new text is written into it.
public enum InPlaceRewrite {
  /// Writes `replacement`'s bytes over `file` in place with `sh`: on even rounds `: > file`
  /// first, on odd ones the first 300 bytes first; whether `sh` succeeded.
  public static func run(_ file: URL, from replacement: URL, round: Int) throws -> Bool {
    let (target, source) = (file.path, replacement.path)
    let first = round % 2 == 0 ? ": > '\(target)'" : "head -c 300 '\(source)' > '\(target)'"
    let script = "\(first); cat '\(source)' > '\(target)'"
    return try ChildProcess.runCommand("sh", ["-c", script]).status == 0
  }
}
