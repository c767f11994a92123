/// A pause for tests inside the application of an outside change: called with the object after
/// the changed values were read from the store and before they are assigned to its caches, so
/// that a test can make a local write land in between. `nil` (and one lock taken per outside
/// change, never per read or write) in programs.
package enum OutsideChangeProbe {
  /// The code to run with the object; a test sets it and clears it when done.
  package static let betweenReadAndAssign = AnnotatedMutex<(@Sendable (AnyObject) -> Void)?>(nil)

  /// Runs the code set, if any, with `object`.
  static func run(with object: AnyObject) {
    betweenReadAndAssign.withLock { $0 }?(object)
  }
}
