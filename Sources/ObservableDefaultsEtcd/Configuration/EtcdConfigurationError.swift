import ObservableDefaultsCore

/// A configuration of the etcd backend that cannot be used (a credentials file readable by
/// others, a missing field, no endpoint). The message names the file or variable to fix.
public struct EtcdConfigurationError: Error, Sendable, CustomStringConvertible {
  /// What is wrong and how to fix it.
  public let message: String

  init(_ message: String) {
    self.message = message
  }

  /// The message, as ``message``.
  public var description: String { message }
}
