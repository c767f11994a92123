import Foundation

/// A problem the library met where it cannot throw — a setter whose write failed, a suite file
/// that stopped parsing, a change watcher that could not start — reported to ``Diagnostics``.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
  /// The part of the library that reports it, as Apple's names go: `PropertyListDefaults`,
  /// `NSUbiquitousKeyValueStore`, `ObservableDefaults`.
  public let subsystem: String
  /// What happened, for people, in one line.
  public let message: String

  /// Creates a diagnostic.
  public init(subsystem: String, message: String) {
    self.subsystem = subsystem
    self.message = message
  }

  /// `subsystem: message`.
  public var description: String { "\(subsystem): \(message)" }
}

/// The one place library code reports a ``Diagnostic`` to; by default each one goes to standard
/// error as one line.
///
/// A program that owns the terminal (a full-screen editor) sets ``handler`` to show them its own
/// way while it does, and puts the previous handler back afterwards:
///
/// ```swift
/// let previous = Diagnostics.handler
/// Diagnostics.handler = { diagnostic in statusLine.post(diagnostic.description) }
/// defer { Diagnostics.handler = previous }
/// ```
///
/// The handler may be called on any thread, once per diagnostic.
public enum Diagnostics {
  /// Receives every diagnostic, on the thread that reports it.
  public typealias Handler = @Sendable (Diagnostic) -> Void

  /// Writes `subsystem: message` and a newline to standard error, with every character that is
  /// not printable escaped (`TerminalText.escaped(_:)`): messages quote keys, values and names
  /// that came from files and the network. A closed standard error loses the line, never the
  /// program.
  public static let standardError: Handler = { diagnostic in
    // `write(contentsOf:)`, not `write(_:)`: the latter traps when standard error is closed.
    try? FileHandle.standardError.write(
      contentsOf: Data((TerminalText.escaped("\(diagnostic)") + "\n").utf8))
  }

  private static let current = AnnotatedMutex<Handler>(standardError)

  /// Where diagnostics go now; ``standardError`` until a program sets another.
  public static var handler: Handler {
    get { current.withLock { $0 } }
    set { current.withLock { $0 = newValue } }
  }

  /// Hands `message` from `subsystem` to the current ``handler``.
  package static func report(_ subsystem: String, _ message: String) {
    handler(Diagnostic(subsystem: subsystem, message: message))
  }
}
