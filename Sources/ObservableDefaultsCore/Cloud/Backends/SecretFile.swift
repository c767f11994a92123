import Foundation

/// A file holding secrets (passwords, keys) that only its owner may read or write: mode `0600`
/// or `0400`. Shared by the configurations of the networked backends.
package enum SecretFile {
  /// Why a secret file cannot be used: a sentence naming the file and how to fix it.
  package struct Problem: Error {
    package let message: String
  }

  /// The text of `path`.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - what: What the file is, for the message (`etcd credentials file`).
  /// - Throws: ``Problem`` when the file cannot be read, is not UTF-8, or is readable or writable
  ///   by its group or others.
  package static func text(of path: String, what: String) throws(Problem) -> String {
    let status: Stat
    do {
      status = try Stat(path)
    } catch {
      throw Problem(message: "cannot read the \(what) \(path): \(error)")
    }
    guard status.permissions & 0o077 == 0 else {
      let mode = String(status.permissions & 0o777, radix: 8)
      throw Problem(
        message:
          "the \(what) \(path) has mode \(mode); it must be readable by its owner only (chmod 600 \(path))"
      )
    }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw Problem(message: "cannot read the \(what) \(path)")
    }
    return text
  }
}
