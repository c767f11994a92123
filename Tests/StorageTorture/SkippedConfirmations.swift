import Foundation
import Glibc
import ObservableDefaultsCore

/// The confirmations our writers and observers skip (a version found current after renames onto
/// the file only, its bytes not read: `PropertyListFile.isStill(_:afterReplacementsOnly:)`), each
/// checked by reading and hashing the file right after, one line each in a log that the driver
/// counts at the end.
enum SkippedConfirmations {
  /// The environment variable that names the log to a writer or an observer.
  static let variable = "STORAGE_TORTURE_SKIP_LOG"

  /// Has this process note each check in the log its environment names, if any.
  static func noteChecks() {
    guard let path = ProcessInfo.processInfo.environment[variable] else { return }
    PropertyListFile.skippedConfirmationCheck = { check in
      let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return }
      _ = (check.rawValue + "\n").withCString { write(descriptor, $0, strlen($0)) }
      close(descriptor)
    }
  }

  /// The log of a run whose scratch folder is `scratch` (its folder made).
  static func log(in scratch: URL) -> URL {
    let folder = scratch.appendingPathComponent("checks")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("skipped-confirmations.log")
  }

  /// The summary of the log at `url`: how many skips were checked, and what reading the file
  /// right after said of them (``PropertyListFile/SkippedConfirmationCheck``).
  static func summary(of url: URL) -> String {
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n")
    let kinds: [PropertyListFile.SkippedConfirmationCheck] = [
      .agreed, .replacedSince, .rewrittenSince, .unreadable,
    ]
    return "skipped-confirmations checked \(lines.count) "
      + kinds.map { kind in "\(kind.rawValue) \(lines.count { $0 == kind.rawValue })" }.joined(
        separator: " ")
  }
}
