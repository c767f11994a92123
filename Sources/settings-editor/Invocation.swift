import Foundation

/// What the command line asks for.
enum Invocation: Equatable {
  /// The full-screen editor on the demo objects and every suite.
  case editor
  /// The full-screen editor on these property-list files.
  case editFiles([String])
  /// `read <suite | path.plist> [key]`
  case read(domain: Domain, key: String?)
  /// `write <suite> <key> [-type] <value>`
  case write(suite: String, key: String, value: TypedArgument)
  /// `delete <suite> <key>`
  case delete(suite: String, key: String)
  case help

  /// A suite name or a property-list file named on the command line.
  enum Domain: Equatable {
    case suite(String)
    case file(String)

    /// A path when the argument has a `/` or names an existing `.plist` file, else a suite.
    init(_ argument: String) {
      let isFile = argument.contains("/") || (argument.hasSuffix(".plist") && FileManager.default.fileExists(atPath: argument))
      self = isFile ? .file(argument) : .suite(argument)
    }
  }

  /// A value and the type flag it came with (`-string` when none).
  struct TypedArgument: Equatable {
    var flag: String
    var text: String
  }

  /// Reads the arguments after the program name.
  ///
  /// - Throws: ``UsageError`` when they fit no form.
  init(arguments: [String]) throws(UsageError) {
    guard let verb = arguments.first else {
      self = .editor
      return
    }
    let operands = Array(arguments.dropFirst())
    switch verb {
    case "-h", "--help", "help":
      self = .help
    case "read":
      guard (1...2).contains(operands.count) else { throw UsageError("read takes a suite or a .plist path, and optionally a key") }
      self = .read(domain: Domain(operands[0]), key: operands.count == 2 ? operands[1] : nil)
    case "write":
      self = try Self.write(operands)
    case "delete":
      guard operands.count == 2 else { throw UsageError("delete takes a suite and a key") }
      guard case .suite(let suite) = Domain(operands[0]) else { throw UsageError("delete works on suites; files opened by path are read-only") }
      self = .delete(suite: suite, key: operands[1])
    case _ where verb.hasPrefix("-"):
      throw UsageError("unknown option \(verb)")
    default:
      guard arguments.allSatisfy({ Domain($0) != .suite($0) }) else {
        throw UsageError("unknown command \(verb) (property-list files must exist and end in .plist or contain /)")
      }
      self = .editFiles(arguments)
    }
  }

  private static let typeFlags = ["-string", "-int", "-integer", "-float", "-bool", "-boolean"]

  private static func write(_ operands: [String]) throws(UsageError) -> Invocation {
    let usage = UsageError("write takes a suite, a key, an optional type (\(typeFlags.joined(separator: " | "))) and a value")
    guard operands.count == 3 || operands.count == 4 else { throw usage }
    guard case .suite(let suite) = Domain(operands[0]) else { throw UsageError("write works on suites; files opened by path are read-only") }
    if operands.count == 3 {
      return .write(suite: suite, key: operands[1], value: TypedArgument(flag: "-string", text: operands[2]))
    }
    guard typeFlags.contains(operands[2]) else { throw UsageError("unknown type \(operands[2]); use one of \(typeFlags.joined(separator: ", "))") }
    return .write(suite: suite, key: operands[1], value: TypedArgument(flag: operands[2], text: operands[3]))
  }
}

/// Arguments that fit no form of the command; printed with a pointer to `--help`.
struct UsageError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
