import Foundation
import ObservableDefaultsCore

/// `storage-torture observer FILE`: a process that holds the suite, prints every change report
/// it is told (`change ORIGIN KEYHEX,…` of its exact keys, `-` for none; origin `this` or
/// `other`) and, for each `dump KEYHEX…` line on standard input, what it reads now (keys looked
/// up and listed exactly, by their Unicode scalars):
///
///     values
///     v KEYHEX CODE      (each key asked for that has a value, looked up one by one)
///     x KEYHEX           (a key of its exact values that was not asked for)
///     e MESSAGE          (its last error, if any)
///     end
enum ObserverRole {
  static func run(file: String) -> Never {
    let defaults = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
    let observation = defaults.observe { change in
      let keys = change.exactKeys.map { ValueCode.hex($0.string.utf8) }.sorted()
      let origin = change.origin == .thisProcess ? "this" : "other"
      say("change \(origin) " + (keys.isEmpty ? "-" : keys.joined(separator: ",")))
    }
    say("ready")
    while let line = readLine(strippingNewline: true) {
      let fields = line.split(separator: " ")
      guard fields.first == "dump" else { continue }
      say(dump(defaults, asked: Set(fields.dropFirst().map(String.init))))
    }
    observation.cancel()
    exit(0)
  }

  /// The answer to a dump of the keys `asked` (key hex; nil: every key, each as a `v` line).
  static func dump(_ defaults: PropertyListDefaults, asked: Set<String>?) -> String {
    var lines = ["values"]
    let exact = defaults.exactPersistentValues
    let asked = asked ?? Set(exact.keys.map { ValueCode.hex($0.string.utf8) })
    for keyHex in asked.sorted() {
      guard let key = ValueCode.key(Substring(keyHex)),
        let value = defaults.persistentValue(forKey: key)
      else { continue }
      lines.append("v \(keyHex) \(ValueCode.code(of: value))")
    }
    for key in exact.keys where !asked.contains(ValueCode.hex(key.string.utf8)) {
      lines.append("x \(ValueCode.hex(key.string.utf8))")
    }
    if let error = defaults.lastError {
      lines.append("e " + "\(error)".replacingOccurrences(of: "\n", with: " "))
    }
    lines.append("end")
    return lines.joined(separator: "\n")
  }
}
