/// A clock the test moves by hand, for the editor's change marks.
@MainActor
final class TestClock {
  var now = ContinuousClock.now
}
