import Foundation
import TestSupport
import Testing

/// Compares `lines` with the golden capture `Snapshots/<name>.txt` beside the tests (recorded
/// again with `RECORD_SNAPSHOTS=1`, see ``expectGoldenFile(_:at:sourceLocation:)``).
func assertSnapshot(
  _ lines: [String], named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Snapshots/\(name).txt")
  expectGoldenFile(lines.joined(separator: "\n"), at: file, sourceLocation: sourceLocation)
}
