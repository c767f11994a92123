import Foundation
import TestSupport

/// `watch` running as a child process, its output read as it comes.
struct Watcher {
  let child: ChildProcess

  init(_ editor: EditorProcess, _ arguments: [String]) throws {
    child = try editor.start(["watch"] + arguments)
  }

  /// Waits until the output (or standard error) satisfies `condition`; returns it.
  @discardableResult
  func wait(onError: Bool = false, _ condition: (String) -> Bool) -> String {
    var text = ""
    pollBlocking {
      text = onError ? child.errorSoFar : child.outputSoFar
      return condition(text)
    }
    return text
  }

  /// Sends `signal` and waits for the exit status.
  func stop(with signal: Int32) -> Int32 {
    kill(child.processIdentifier, signal)
    return child.finish().status
  }
}
