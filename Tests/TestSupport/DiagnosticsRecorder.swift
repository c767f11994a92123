import ObservableDefaultsCore
import Synchronization

/// The diagnostics reported while a test records them.
///
/// Tests run in parallel. One that set `Diagnostics.handler` and put the previous handler back
/// afterwards could put back the handler of another test still running, which then saw none of
/// its own lines (two NATS tests that each count their refused records did). Every recorder
/// shares one handler instead, installed once for the process: it hands each diagnostic to every
/// recorder recording then, and to standard error. A test sees the other tests' lines too, so it
/// filters them by a name of its own (its bucket, its suite's file).
///
/// ```swift
/// let recorder = DiagnosticsRecorder()
/// defer { recorder.stop() }
/// // …
/// #expect(recorder.messages.contains { $0.contains(layout.bucket) })
/// ```
public final class DiagnosticsRecorder: Sendable {
  private static let recording = Mutex<[ObjectIdentifier: DiagnosticsRecorder]>([:])
  /// Installs the shared handler, on first use.
  private static let sharedHandler: Void = {
    Diagnostics.handler = { diagnostic in
      for recorder in recording.withLock({ Array($0.values) }) {
        recorder.recorded.withLock { $0.append(diagnostic) }
      }
      Diagnostics.standardError(diagnostic)
    }
  }()

  private let recorded = Mutex<[Diagnostic]>([])

  /// Starts recording.
  public init() {
    Self.sharedHandler
    Self.recording.withLock { $0[ObjectIdentifier(self)] = self }
  }

  /// Stops recording.
  public func stop() {
    _ = Self.recording.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) }
  }

  /// The diagnostics reported so far while recording, in order.
  public var diagnostics: [Diagnostic] { recorded.withLock { $0 } }

  /// Their messages.
  public var messages: [String] { diagnostics.map(\.message) }
}
