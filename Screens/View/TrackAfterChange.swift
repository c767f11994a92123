@_spi(SwiftUI) import Observation

/// Runs `read` while recording the observable properties it reads, and calls `onChange` once,
/// *after* the first of them has changed.
///
/// Plain `withObservationTracking(_:onChange:)` calls back in `willSet`, before the new value is
/// stored. A change made on another thread (a write from another process, applied on a
/// background queue) would then wake the loop while the old value is still in place, and the
/// redraw could show it. The `didSet` form of the toolchain's tracking (SPI; on Linux the same
/// implementation) calls back once the value is stored, so the redraw always reads the new value.
func trackAfterChange<Value>(_ read: () -> Value, onChange: @escaping @Sendable () -> Void) -> Value
{
  withObservationTracking(
    read,
    didSet: { tracking in
      tracking.cancel()
      onChange()
    })
}
