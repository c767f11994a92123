import ObservableDefaultsCore

/// Why a verb failed, with the exit status a script sees.
struct VerbError: Error, CustomStringConvertible {
  /// The classes of failure and their exit statuses.
  enum Kind: Equatable {
    /// The arguments fit no form of the verb (64); its usage is printed.
    case usage(Verb?)
    /// The suite, file or key does not exist, or a file cannot be read or written (1).
    case failure
    /// A value or an input that is not valid (65).
    case invalidValue
    /// A key an administrator made mandatory (77, `EX_NOPERM` of sysexits(3)): a system file
    /// sets its value, which the user cannot change.
    case mandatory

    var exitStatus: Int32 {
      switch self {
      case .usage: 64
      case .failure: 1
      case .invalidValue: 65
      case .mandatory: 77
      }
    }
  }

  let kind: Kind
  let description: String

  /// A usage error of `verb` (nil: no verb was recognised).
  static func usage(_ verb: Verb?, _ message: String) -> VerbError {
    VerbError(kind: .usage(verb), description: message)
  }

  /// A missing suite, file or key, or an I/O failure.
  static func failure(_ message: String) -> VerbError {
    VerbError(kind: .failure, description: message)
  }

  /// A value or input that is not valid.
  static func invalid(_ message: String) -> VerbError {
    VerbError(kind: .invalidValue, description: message)
  }

  /// A write to a mandatory key.
  static func mandatory(_ message: String) -> VerbError {
    VerbError(kind: .mandatory, description: message)
  }

  /// What follows the message on standard error for a usage error: the usage and where help
  /// is; nil for the others.
  var usage: String? {
    guard case .usage(let verb) = kind else { return nil }
    guard let verb else { return "Run settings-editor --help for usage." }
    return "Usage: \(verb.usageLine)\nRun settings-editor \(verb.rawValue) --help for more."
  }
}

extension VerbError.Kind {
  /// The class of a property-list failure: a file that does not parse or a value it cannot hold
  /// is invalid input (65) whichever verb met it (`write` and `import` alike), a mandatory key
  /// 77, a file that cannot be read or written a failure (1).
  init(of error: PropertyListError) {
    switch error.kind {
    case .malformed, .invalidValue: self = .invalidValue
    case .mandatory: self = .mandatory
    case .unreadable, .unwritable: self = .failure
    }
  }
}
