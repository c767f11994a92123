import Dispatch
import Foundation
import ObservableDefaultsCore
import SettingsEditor

/// The `watch` verb: one line per change to a suite, `time  suite  key: old → new  (origin)`,
/// until SIGINT or SIGTERM.
enum WatchVerb {
  /// Watches `suite` (only `key` when given) and returns when a termination signal arrives.
  ///
  /// Prints `watching <suite>` on standard error once changes are being followed.
  static func run(suite: String, key: String?) throws {
    SettingsFileWatching.startNow()
    SystemMemory.mapLargeBlocks()
    let defaults = try DefaultsVerbs.suiteDefaults(suite, readingSystemLayers: true)
    let printer = ChangePrinter(defaults: defaults, suite: suite, key: key)
    let observation = defaults.observe { change in printer.report(change) }
    defer { observation.cancel() }
    FileHandle.standardError.write(Data("watching \(TerminalText.escaped(suite))\n".utf8))
    waitForTerminationSignal()
  }

  private static func waitForTerminationSignal() {
    let done = DispatchSemaphore(value: 0)
    let sources = [SIGINT, SIGTERM].map { signalNumber in
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler { done.signal() }
      source.resume()
      return source
    }
    done.wait()
    for source in sources { source.cancel() }
  }
}

/// Remembers the values of a suite and prints each change against them: the values its
/// programs read (mandatory, the user's file, system-wide and published defaults), so that an
/// administrator's change is printed as one, and a user's value over a system-wide default
/// shows that default as the old value.
private final class ChangePrinter: @unchecked Sendable {
  // Sendable: `values`, guarded by `lock`, holds property-list values (`Any`).
  private let defaults: PropertyListDefaults
  private let key: String?
  private let suite: String
  private let lock = NSLock()
  private var values: [String: Any]

  init(defaults: PropertyListDefaults, suite: String, key: String?) {
    self.defaults = defaults
    self.key = key
    self.suite = suite
    values = defaults.dictionaryRepresentation()
  }

  func report(_ change: DefaultsChange) {
    lock.withLock {
      for changed in change.keys.sorted() where key == nil || changed == key {
        let new = defaults.object(forKey: changed)
        guard !propertyListValuesEqual(values[changed], new) else { continue }
        let entry = ChangeHistory.Entry(
          time: Date(), key: TerminalText.escaped(changed), old: Self.text(values[changed]),
          new: Self.text(new), origin: TerminalText.escaped(change.writer.description))
        let line = ChangeHistory.text(of: entry, suite: suite) + "\n"
        values[changed] = new
        FileHandle.standardOutput.write(Data(line.utf8))
      }
    }
  }

  private static func text(_ value: Any?) -> String {
    value.map(PropertyListText.renderLine) ?? "(none)"
  }
}
