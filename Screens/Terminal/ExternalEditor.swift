import Foundation
import ObservableDefaultsCore

/// The user's own editor (`$VISUAL`, else `$EDITOR`, else `vi`) on a temporary file, for values
/// too long or too structured for one line. Curses gives the terminal up while it runs.
@MainActor
struct ExternalEditor {
  let canvas: NcursesCanvas
  let loop: EventLoop

  /// Writes `text` to a private temporary file ending in `.extension` (see ``EditingFile``),
  /// runs the editor on it in the terminal, without the package's secrets in its environment
  /// (see ``ChildEnvironment``), and returns the file's text when the editor exits with status 0;
  /// nil otherwise (the editor is missing or failed). The file is removed afterwards.
  func edit(_ text: String, fileExtension: String) -> String? {
    guard let file = EditingFile(text, fileExtension: fileExtension) else { return nil }
    defer { file.remove() }
    let environment = ProcessEnvironment.all
    let command =
      [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
      .first { !$0.isEmpty } ?? "vi"
    canvas.suspend()
    defer {
      // Ctrl-C meant for the editor reached this process too: it does not end the editor.
      loop.discardSignals()
      canvas.resume()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // The command may carry its own arguments (`code --wait`); the file is one more.
    process.arguments = ["-c", command + " \"$1\"", "sh", file.url.path]
    process.environment = ChildEnvironment.withoutSecrets(environment)
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
    return file.text()
  }
}
