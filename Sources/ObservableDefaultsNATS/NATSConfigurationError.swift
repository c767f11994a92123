/// A configuration of the NATS backend that cannot be used (a secret file readable by others, a
/// missing field, no server). The message names the file or variable to fix; it never holds a
/// secret.
public struct NATSConfigurationError: Error, Sendable, CustomStringConvertible {
  /// What is wrong and how to fix it.
  public let message: String

  init(_ message: String) {
    self.message = message
  }

  /// The message, as ``message``.
  public var description: String { message }
}
