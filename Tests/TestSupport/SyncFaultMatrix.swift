import Foundation
import Testing

/// One row of the sync fault matrix: what a fault test observed for one engine and one fault.
///
/// The matrix is the table under ``SyncFaultMatrix/heading`` in the DocC guide
/// ``SyncFaultMatrix/guide``. Each fault test builds the row it observed and calls
/// ``SyncFaultMatrix/expectDocumented(_:sourceLocation:)``, which compares it with the guide's row
/// of the same engine and fault — so the guide says what the tests see, whatever test target (or
/// process) runs them.
public struct SyncFaultRow: Sendable, Equatable, CustomStringConvertible {
  /// The engine: `embedded`, `etcd` or `NATS`.
  public var engine: String
  /// The fault, in words (e.g. `the whole cluster killed`); with ``engine``, the row's key.
  public var fault: String
  /// The state summary the device gives during the fault (``CloudSyncStatus/summary``).
  public var toldDuring: String
  /// The exit status of `settings-editor cloud status` during the fault; nil when the test does
  /// not run it (shown as `-`).
  public var statusExit: Int32?
  /// The state summary once the fault healed.
  public var toldAfter: String
  /// Whether every acknowledged write reached every device after the fault healed, without the
  /// program writing again.
  public var writesArrive: Bool

  /// A row; see the properties.
  public init(
    engine: String, fault: String, toldDuring: String, statusExit: Int32?, toldAfter: String,
    writesArrive: Bool
  ) {
    self.engine = engine
    self.fault = fault
    self.toldDuring = toldDuring
    self.statusExit = statusExit
    self.toldAfter = toldAfter
    self.writesArrive = writesArrive
  }

  /// The row's cells, as the guide's table holds them.
  var cells: [String] {
    [
      engine, fault, "`\(toldDuring)`", statusExit.map(String.init) ?? "-", "`\(toldAfter)`",
      writesArrive ? "yes" : "no",
    ]
  }

  /// The row as a Markdown table line.
  public var description: String { SyncFaultMatrix.line(cells) }
}

/// The sync fault matrix of the DocC guide, checked row by row by the fault tests.
///
/// `RECORD_SNAPSHOTS=1` (see ``isRecordingGoldenFiles``) writes the observed row into the guide
/// (replacing the row of the same engine and fault, or appending it) and fails the test, as a
/// golden file is recorded.
public enum SyncFaultMatrix {
  /// The guide holding the matrix.
  public static let guide = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(
      "Sources/ObservableDefaults/ObservableDefaults.docc/ChoosingAndDeployingASyncEngine.md")

  /// The heading the matrix follows: the first table after it is the matrix.
  public static let heading = "### The fault matrix"

  /// The table's header and separator lines.
  static let header = [
    line([
      "Engine", "Fault", "Told during the fault", "`cloud status` exits", "Told after it heals",
      "Every acknowledged write arrives",
    ]),
    "|---|---|---|---|---|---|",
  ]

  /// Serializes recordings of the tests of this process.
  private static let lock = NSLock()

  /// Compares `row` with the guide's row of the same engine and fault.
  ///
  /// - Parameters:
  ///   - row: What the test observed.
  ///   - sourceLocation: Where a difference is reported.
  public static func expectDocumented(
    _ row: SyncFaultRow, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    lock.withLock {
      do {
        var lines = try String(contentsOf: guide, encoding: .utf8)
          .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let table = try tableRange(in: lines)
        let index = lines[table].firstIndex {
          Array(cells(of: $0).prefix(2)) == [row.engine, row.fault]
        }
        if let index, !isRecordingGoldenFiles {
          let documented = lines[index]
          if cells(of: documented) != row.cells {
            SyncFaultSoak.current?.note(
              mismatch: "the guide says \(documented), the test saw \(row)")
            Issue.record(
              "\(row.engine) × \(row.fault): the guide says\n\(documented)\nthe test saw\n\(row)",
              sourceLocation: sourceLocation)
          }
          return
        }
        if let index {
          lines[index] = row.description
        } else {
          lines.insert(row.description, at: table.upperBound)
        }
        try lines.joined(separator: "\n").write(to: guide, atomically: true, encoding: .utf8)
        Issue.record(
          "Recorded \(row.engine) × \(row.fault) in \(guide.lastPathComponent); run again to compare",
          sourceLocation: sourceLocation)
      } catch {
        Issue.record("\(guide.path): \(error)", sourceLocation: sourceLocation)
      }
    }
  }

  /// Every row of the guide's matrix, as cell lists (header excluded).
  ///
  /// - Throws: ``MatrixMissing`` when the guide has no matrix.
  public static func documentedRows() throws -> [[String]] {
    let lines = try String(contentsOf: guide, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return lines[try tableRange(in: lines)].map(cells(of:))
  }

  /// The guide has no heading ``heading`` followed by the matrix's header.
  public struct MatrixMissing: Error, CustomStringConvertible {
    /// Names the heading and the header expected.
    public var description: String {
      "no \"\(SyncFaultMatrix.heading)\" followed by a table headed \(SyncFaultMatrix.header[0])"
    }
  }

  /// The lines of the table's rows (after its header and separator), possibly empty: the range
  /// ends where the table does, which is where a new row is appended.
  private static func tableRange(in lines: [String]) throws -> Range<Int> {
    guard let headingIndex = lines.firstIndex(of: heading),
      let start = lines[headingIndex...].firstIndex(of: header[0]),
      start + 1 < lines.count, lines[start + 1] == header[1]
    else { throw MatrixMissing() }
    let first = start + 2
    let end = lines[first...].firstIndex { !$0.hasPrefix("|") } ?? lines.count
    return first..<end
  }

  /// The trimmed cells of a table line.
  static func cells(of line: String) -> [String] {
    line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
      .map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// A table line of `cells`.
  static func line(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |"
  }
}

extension SyncFaultMatrix {
  /// What `read` gives once it stopped changing: the same for `stable`, within `deadline`; the
  /// last value seen otherwise. For a state summary that settles after a fault.
  public static func settled(
    _ read: () -> String, stable: Duration = .seconds(3), within deadline: Duration = .seconds(40)
  ) async -> String {
    var last = read()
    var since = ContinuousClock.now
    await poll(within: deadline) {
      let now = read()
      if now != last { (last, since) = (now, .now) }
      return ContinuousClock.now - since >= stable
    }
    return last
  }
}
