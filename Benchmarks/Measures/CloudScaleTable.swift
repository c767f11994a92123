import Foundation

/// One row of the cloud scale table: one engine's cluster holding `devices` devices of one
/// store, idle, and then fanning a change out to them.
struct CloudScaleRow {
  let engine: String
  /// Devices held: the writer and the observers.
  let devices: Int
  /// The connections each server held on its client port.
  let connections: [Int]
  /// What each observer device added since the writer alone, to this process and to the
  /// servers together; nil for the writer alone.
  let perDevice: (process: ProcessFigures, servers: ProcessFigures)?
  /// Cores busy on average over the idle window, in this process and in the servers together.
  let idleLoad: (process: Double, servers: Double)
  /// Seconds from the writer's set until every observer's store observer fired; nil for the
  /// writer alone.
  let fanOut: Samples?
}

/// The scale rows of every engine, and why each engine stopped where it did, as Markdown.
final class CloudScaleTable {
  private var rows: [CloudScaleRow] = []
  private var stops: [String] = []

  /// Adds a row and echoes it to standard error, so a long run shows progress.
  func add(_ row: CloudScaleRow) {
    rows.append(row)
    let fanOut = row.fanOut.map { ", fan-out p50 " + Unit.milliseconds.format($0.median) } ?? ""
    log("\(row.engine), \(row.devices) devices\(fanOut)")
  }

  /// Notes why `engine` went no further than its last row.
  func stop(_ engine: String, _ reason: String) {
    stops.append("\(engine): \(reason)")
    log("\(engine) stopped: \(reason)")
  }

  /// The table, then one line per engine that stopped short.
  func markdown() -> String {
    var lines = [
      "| Engine | Devices | Connections per server | Memory / device | Descriptors / device "
        + "| Threads / device | Servers' memory / device | Servers' descriptors / device "
        + "| Idle CPU: devices, servers | Fan-out p50 | p99 | max |",
      "|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for row in rows {
      let load = "\(Self.percent(row.idleLoad.process)), \(Self.percent(row.idleLoad.servers))"
      let device = row.perDevice.map { added in
        [
          Self.kilobytes(added.process.residentBytes), Self.decimal(added.process.descriptors),
          Self.decimal(added.process.threads), Self.kilobytes(added.servers.residentBytes),
          Self.decimal(added.servers.descriptors),
        ]
      }
      let fanOut = row.fanOut.map { samples in
        [samples.median, samples.percentile(99), samples.max].map(Unit.milliseconds.format)
      }
      let cells =
        [
          "\(row.engine)", "\(row.devices)",
          row.connections.map(String.init).joined(separator: ", "),
        ]
        + (device ?? Array(repeating: "—", count: 5)) + [load]
        + (fanOut ?? Array(repeating: "—", count: 3))
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return (lines + stops.map { "\nStopped — \($0)" }).joined(separator: "\n")
  }

  /// Writes a line of progress to standard error.
  func log(_ line: String) {
    FileHandle.standardError.write(Data("  cloud scale: \(line)\n".utf8))
  }

  private static func kilobytes(_ bytes: Double) -> String {
    String(format: "%.0f KB", bytes / 1024)
  }
  private static func decimal(_ value: Double) -> String { String(format: "%.2f", value) }
  private static func percent(_ cores: Double) -> String { String(format: "%.0f %%", cores * 100) }
}
