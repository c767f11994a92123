package import Synchronization

/// A pause for tests inside the first read of a suite's rows (``SuiteRows``): called with the
/// suite after the rows took its keys and before they are laid out, so that a test can make
/// another process's change land there. `nil` (and one lock taken per suite read, never per
/// change) in programs.
package enum SuiteReadProbe {
  /// The code to run with the suite; a test sets it and clears it when done.
  package static let afterTakingKeys = Mutex<(@Sendable (AnyObject) -> Void)?>(nil)

  /// Runs the code set, if any, with `suite`.
  static func run(with suite: AnyObject) {
    afterTakingKeys.withLock { $0 }?(suite)
  }
}
