import Foundation
import TestSupport

/// Python 3 with `cryptography` (Debian's python3-cryptography), which makes the NATS tests' key
/// material: NKeys (``NKeyPair``) and the JWTs they sign (``NATSJWT``).
enum PythonScript {
  /// The script failed (python3 or its `cryptography` module missing, or a bad argument).
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `script` (`python3 -c`) with `arguments` and returns its standard output, trimmed.
  ///
  /// - Throws: ``Failure`` naming `what` and Python's output when the script fails.
  static func run(_ script: String, _ arguments: [String], doing what: String) throws -> String {
    let result = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + arguments)
    guard result.status == 0 else {
      throw Failure(
        description: "\(what) with python3-cryptography: \(result.error)\(result.output)")
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
