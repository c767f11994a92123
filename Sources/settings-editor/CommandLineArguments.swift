import Foundation
import ObservableDefaultsCore

/// The program's arguments as the kernel passed them, so that one that is not UTF-8 is refused
/// instead of read as another name: `CommandLine.arguments` replaces every byte sequence that is
/// not UTF-8 with U+FFFD, which would write, read or delete a key, value, suite or file other
/// than the one typed.
struct CommandLineArguments {
  /// The arguments after the program name, decoded (U+FFFD for bytes that are not UTF-8, used
  /// only to find the verb and the role of each argument).
  let texts: [String]
  /// The arguments that are not UTF-8, by index in ``texts``: their bytes, with each byte of a
  /// sequence that is not UTF-8 written `\xHH`.
  let invalid: [Int: String]

  /// The arguments of this process, from `CommandLine.unsafeArgv`.
  static var current: CommandLineArguments {
    CommandLineArguments(
      (1..<Int(CommandLine.argc)).map { index in
        guard let argument = CommandLine.unsafeArgv[index] else { return [] }
        return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
      })
  }

  /// Decodes `arguments` (each argument's bytes, without the program name).
  init(_ arguments: [[UInt8]]) {
    texts = arguments.map { String(decoding: $0, as: UTF8.self) }
    var invalid: [Int: String] = [:]
    for (index, bytes) in arguments.enumerated()
    where String(validating: bytes, as: UTF8.self) == nil {
      invalid[index] = TerminalText.decoded(bytes)
    }
    self.invalid = invalid
  }

  /// What the arguments ask for.
  ///
  /// - Throws: ``VerbError`` of kind `.invalidValue` (exit 65) naming the first argument that is
  ///   not UTF-8 — by its role (`the key`, `the suite name`, `the file`…) when the arguments fit
  ///   a form, and by its position always; else the usage error of ``Invocation``.
  func invocation() throws(VerbError) -> Invocation {
    let invocation: Invocation
    do {
      invocation = try Invocation(arguments: texts)
    } catch {
      guard let first = invalid.keys.min() else { throw error }
      throw refusal(of: first, role: nil)
    }
    guard let first = invalid.keys.min() else { return invocation }
    let role = invocation.namedOperands.first { $0.text == texts[first] }?.role
    throw refusal(of: first, role: role)
  }

  private func refusal(of index: Int, role: String?) -> VerbError {
    let name = role.map { "the \($0) (argument \(index + 1))" } ?? "argument \(index + 1)"
    return .invalid("\(name) is not valid UTF-8: \(invalid[index] ?? "")")
  }
}
