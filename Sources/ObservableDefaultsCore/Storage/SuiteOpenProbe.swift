package import Foundation

/// A pause for tests inside the opening of a suite's file: called with the file (symbolic links
/// resolved) after the storage read it and before it watches it, so that a test can make
/// another process's change land there. `nil` (and one lock taken per file opened, never per
/// read or write) in programs.
package enum SuiteOpenProbe {
  /// The code to run with the file; a test sets it and clears it when done.
  package static let betweenReadAndWatch = AnnotatedMutex<(@Sendable (URL) -> Void)?>(nil)

  /// Runs the code set, if any, with `file`.
  static func run(with file: URL) {
    betweenReadAndWatch.withLock { $0 }?(file)
  }
}
