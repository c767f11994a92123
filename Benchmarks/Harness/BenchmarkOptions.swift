/// The command line of a benchmark run.
struct BenchmarkOptions {
  /// Measured runs per measure.
  var runs = 7
  /// The only measures to run (their names, from `--only a,b`), or nil for all.
  var only: Set<String>?
  /// Whether to run the clean-build script too.
  var includesBuild = false

  /// Parses `arguments` (without the program name); stops with a usage line on anything else.
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
        only = Set(value.split(separator: ",").map(String.init))
      case "--build":
        includesBuild = true
      default:
        abort(
          "usage: benchmarks [--runs N] [--only read|burst|cloud-write|xml|scale|editor|editor-latency|open|schemas|writers|cloud[,…]] [--build]"
        )
      }
    }
  }

  /// Whether the measure `name` is selected.
  func includes(_ name: String) -> Bool {
    only?.contains(name) ?? true
  }
}
