import Foundation

/// How a value is printed: its unit and scale.
enum Unit {
  case nanoseconds, microseconds, milliseconds, seconds, bytes, megabytes, count

  /// `value` (seconds for times, bytes for sizes, a plain number for counts) in this unit.
  func format(_ value: Double) -> String {
    switch self {
    case .nanoseconds: return String(format: "%.1f ns", value * 1e9)
    case .microseconds: return String(format: "%.2f µs", value * 1e6)
    case .milliseconds: return String(format: "%.1f ms", value * 1e3)
    case .seconds: return String(format: "%.2f s", value)
    case .bytes: return String(format: "%.0f B", value)
    case .megabytes: return String(format: "%.1f MB", value / 1_048_576)
    case .count: return String(format: "%.0f", value)
    }
  }
}

/// A target a measure must meet: a limit on its median (or on another statistic it names).
struct Target {
  /// What the table shows, e.g. "≤ 2× @Observable".
  let text: String
  /// Whether the measured row meets it.
  let isMet: Bool
}

/// One line of the results table.
struct ResultRow {
  let measure: String
  let samples: Samples
  let unit: Unit
  /// The statistic shown as the row's value; the median unless a measure reports a percentile.
  var value: Double?
  var baseline: (name: String, samples: Samples)?
  /// The least the row's work can cost on this machine, measured in the same run (e.g. the
  /// file's write + `fsync` + rename): shown in a column of its own, with the row's ratio to it.
  var floor: (name: String, samples: Samples)?
  var target: Target?
  /// Said in the baseline column when there is no baseline (e.g. why it failed).
  var note: String?

  /// The row's value: ``value`` when given, else the median.
  var shown: Double { value ?? samples.median }
}

/// Collects rows and prints them as a Markdown table (the tables of Benchmarks/README.md).
final class ResultTable {
  private(set) var rows: [ResultRow] = []
  /// Tables of their own that measures add (Markdown), printed after the rows.
  private var sections: [String] = []

  /// Adds a row and echoes it to standard error, so a long run shows progress.
  func add(_ row: ResultRow) {
    rows.append(row)
    FileHandle.standardError.write(Data("  \(row.measure): \(row.unit.format(row.shown))\n".utf8))
  }

  /// Adds a table of a measure's own (Markdown), printed after the rows' table.
  func addSection(_ markdown: String) {
    sections.append(markdown)
  }

  /// The table, one line per row, then the sections.
  func markdown() -> String {
    var lines = [
      "| Measure | Value | Spread (min–max) | Baseline (same run) | Ratio | Floor (same run) "
        + "| × floor | Target | Met |",
      "|---|---:|---:|---|---:|---|---:|---|:---:|",
    ]
    for row in rows {
      let spread = "\(row.unit.format(row.samples.min))–\(row.unit.format(row.samples.max))"
      let baseline =
        row.baseline.map { "\($0.name): \(row.unit.format($0.samples.median))" } ?? row.note ?? "—"
      let ratio = row.baseline.map { String(format: "%.2f×", row.shown / $0.samples.median) } ?? "—"
      let floor = row.floor.map { "\($0.name): \(row.unit.format($0.samples.median))" } ?? "—"
      let overFloor =
        row.floor.map { String(format: "%.2f×", row.shown / $0.samples.median) } ?? "—"
      let met = row.target.map { $0.isMet ? "yes" : "**no**" } ?? "—"
      lines.append(
        "| \(row.measure) | \(row.unit.format(row.shown)) | \(spread) | \(baseline) | \(ratio) "
          + "| \(floor) | \(overFloor) | \(row.target?.text ?? "—") | \(met) |")
    }
    let table = rows.isEmpty && !sections.isEmpty ? [] : [lines.joined(separator: "\n")]
    return (table + sections).joined(separator: "\n\n")
  }
}
