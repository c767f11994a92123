import Foundation

/// The command line of a benchmark run.
struct BenchmarkOptions {
  /// The measures `--only` selects from, in the order a run takes them.
  static let measures = [
    "read", "start", "burst", "cloud-write", "xml", "scale", "one-shot", "watch", "editor",
    "editor-latency", "editor-scale", "editor-search", "schemas", "open", "million", "large-value",
    "memory", "flat-memory", "writers", "cloud", "cloud-scale",
  ]
  /// The usage line, printed by `--help` and after a wrong argument.
  static let usage = """
    usage: benchmarks [--runs N] [--only \(measures.joined(separator: "|"))[,…]]
                      [--devices N,N,…] [--build]
      --runs N        measured runs per measure (at least 5; default 7)
      --only a,b      only these measures (default: all of them)
      --devices N,…   the device counts of cloud-scale (default: \(defaultCounts))
      --build         also time clean builds (Benchmarks/measure-build.sh, about 6 min)
    """
  /// The device counts of the cloud scale rows when `--devices` does not give them.
  static let defaultDeviceCounts = [10, 100, 500, 1000]
  private static var defaultCounts: String {
    defaultDeviceCounts.map(String.init).joined(separator: ",")
  }

  /// Measured runs per measure.
  var runs = 7
  /// The only measures to run (their names, from `--only a,b`), or nil for all.
  var only: Set<String>?
  /// Whether to run the clean-build script too.
  var includesBuild = false
  /// The device counts of the cloud scale rows, ascending.
  var deviceCounts = defaultDeviceCounts

  /// Parses `arguments` (without the program name); prints the usage and exits on `--help`,
  /// stops with it on anything else.
  init(_ arguments: [String]) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--runs":
        guard let value = remaining.popFirst().flatMap(Int.init), value >= 5 else {
          abort("--runs needs a number ≥ 5")
        }
        runs = value
      case "--only":
        guard let value = remaining.popFirst() else { abort("--only needs measure names") }
        let names = Set(value.split(separator: ",").map(String.init))
        guard names.isSubset(of: Self.measures) else {
          abort("--only: no measure \(names.subtracting(Self.measures).sorted())\n\(Self.usage)")
        }
        only = names
      case "--devices":
        let counts = remaining.popFirst()?.split(separator: ",").compactMap { Int($0) } ?? []
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 1 }) else {
          abort("--devices needs device counts above 1, e.g. 10,100,500")
        }
        deviceCounts = counts.sorted()
      case "--build":
        includesBuild = true
      case "--help", "-h":
        print(Self.usage)
        exit(0)
      default:
        abort(Self.usage)
      }
    }
  }

  /// Whether the measure `name` is selected.
  func includes(_ name: String) -> Bool {
    only?.contains(name) ?? true
  }
}
