import Foundation
import ObservableDefaultsCore

/// `storage-torture writer FILE`: one of our writer processes. Reads one command a line on
/// standard input and answers each with `ack ID` once the write is flushed (the write is
/// acknowledged) or `fail ID MESSAGE` when the write or the flush threw:
///
/// - `ID set KEYHEX CODE`, `ID remove KEYHEX`, `ID rename OLDHEX NEWHEX CODE` (one write of both
///   keys, by exact key: also between keys equal as Swift `String`s), `ID sync`
///   (`synchronize()`);
/// - a command prefixed with `fiu POINT PROBABILITY` runs its write and flush with libfiu failing
///   the calls of `POINT` (`posix/io/rw/write`, …) at random (the process runs under `fiu-run -x`);
/// - a command prefixed with `alloc BYTES` runs its flush with every allocation of at least BYTES
///   failing (the process runs with the `allocation_failure.c` shim preloaded);
/// - a `set`, `remove` or `rename` prefixed with `file` (before any of the above) is written as a
///   command that writes and exits writes it: `PropertyListFile.write`, which splices the changes
///   into the file's bytes when it can (then the answer is `ack ID spliced`), not through the
///   process's suite.
///
/// Failures are armed only around the write and flush, never while reading commands or printing
/// answers, so every answer printed is true.
enum WriterRole {
  static func run(file: String) -> Never {
    let defaults = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
    _ = defaults.persistentValue(forKey: "")
    say("ready")
    while let line = readLine(strippingNewline: true) {
      var fields = line.split(separator: " ").map(String.init)
      guard fields.count >= 2 else { continue }
      let id = fields.removeFirst()
      let isOneShot = fields.first == "file"
      if isOneShot { fields.removeFirst() }
      var fault = Fault.none
      if fields.first == "fiu", fields.count >= 3, let probability = Float(fields[2]) {
        fault = .io(point: fields[1], probability: probability)
        fields.removeFirst(3)
      } else if fields.first == "alloc", fields.count >= 2, let bytes = Int(fields[1]) {
        fault = .allocation(bytes: bytes)
        fields.removeFirst(2)
      }
      do {
        let spliced = try perform(
          fields, on: defaults, orOnce: isOneShot ? URL(fileURLWithPath: file) : nil, with: fault)
        say("ack \(id)" + (spliced ? " spliced" : ""))
      } catch {
        say("fail \(id) " + "\(error)".replacingOccurrences(of: "\n", with: " "))
      }
    }
    exit(0)
  }

  /// An injected failure armed around one write.
  enum Fault {
    case none
    case io(point: String, probability: Float)
    case allocation(bytes: Int)
  }

  struct BadCommand: Error, CustomStringConvertible {
    let description: String
  }

  /// Performs one command, through `defaults` or, with `once`, as one write of that file.
  ///
  /// - Returns: Whether the write was spliced into the file's bytes.
  private static func perform(
    _ fields: [String], on defaults: PropertyListDefaults, orOnce once: URL?, with fault: Fault
  ) throws -> Bool {
    func key(_ index: Int) throws -> String {
      guard index < fields.count, let key = ValueCode.key(Substring(fields[index])) else {
        throw BadCommand(description: "bad key in \(fields)")
      }
      return key
    }
    func value(_ index: Int) throws -> Any {
      guard index < fields.count, let value = ValueCode.value(fields[index]) else {
        throw BadCommand(description: "bad value in \(fields)")
      }
      return value
    }
    // By exact key: a rename between keys that differ only in Unicode normalization is one
    // write of two keys (a `[String: Any?]` would hold one).
    var values: [PropertyListKey: Any?] = [:]
    switch fields.first {
    case "set": values[PropertyListKey(try key(1))] = try value(2)
    case "remove": values.updateValue(nil, forKey: PropertyListKey(try key(1)))
    case "rename":
      let (old, new) = (PropertyListKey(try key(1)), PropertyListKey(try key(2)))
      guard old != new else { throw BadCommand(description: "rename of a key to itself") }
      values.updateValue(nil, forKey: old)
      values[new] = try value(3)
    case "sync":
      guard defaults.synchronize() else {
        throw BadCommand(
          description: "synchronize failed: \(String(describing: defaults.lastError))")
      }
      return false
    default: throw BadCommand(description: "unknown command \(fields)")
    }
    arm(fault)
    defer { disarm(fault) }
    if let once {
      return try PropertyListFile(url: once).write(
        values.mapValues { $0.map(PropertyListChange.set) ?? .remove })
    }
    try defaults.write(values)
    try defaults.flush()
    return false
  }

  private typealias EnableRandom =
    @convention(c) (UnsafePointer<CChar>, Int32, UnsafeMutableRawPointer?, UInt32, Float) -> Int32
  private typealias Disable = @convention(c) (UnsafePointer<CChar>) -> Int32
  private typealias FailAllocations = @convention(c) (Int) -> Void

  private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
    dlsym(nil, name).map { unsafeBitCast($0, to: type) }
  }

  private static func arm(_ fault: Fault) {
    switch fault {
    case .none: break
    case .io(let point, let probability):
      guard let enable = symbol("fiu_enable_random", as: EnableRandom.self) else {
        say("note libfiu is not loaded")
        return
      }
      _ = enable(point, 1, nil, 0, probability)
    case .allocation(let bytes):
      guard let fail = symbol("storage_torture_fail_allocations", as: FailAllocations.self) else {
        say("note the allocation shim is not loaded")
        return
      }
      fail(bytes)
    }
  }

  private static func disarm(_ fault: Fault) {
    switch fault {
    case .none: break
    case .io(let point, _): _ = symbol("fiu_disable", as: Disable.self)?(point)
    case .allocation: symbol("storage_torture_fail_allocations", as: FailAllocations.self)?(0)
    }
  }
}

/// Prints one line on standard output at once (the driver reads answers as they come).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
