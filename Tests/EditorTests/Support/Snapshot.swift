import Foundation
import Testing

/// Compares `lines` with the golden capture `Snapshots/<name>.txt` beside the tests.
///
/// A missing capture, or any capture when `RECORD_SNAPSHOTS=1`, is written and the test fails
/// (so a recording is never mistaken for a pass); a mismatch fails with a line diff.
func assertSnapshot(
  _ lines: [String], named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Snapshots")
  let file = folder.appendingPathComponent(name + ".txt")
  let actual = lines.joined(separator: "\n") + "\n"
  let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
  guard !recording, let expected = try? String(contentsOf: file, encoding: .utf8) else {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? actual.write(to: file, atomically: true, encoding: .utf8)
    Issue.record("Recorded \(file.path); run again to compare", sourceLocation: sourceLocation)
    return
  }
  guard expected != actual else { return }
  let diff = lineDiff(expected: expected, actual: actual)
  Issue.record("Screen differs from \(name).txt:\n\(diff)", sourceLocation: sourceLocation)
}

/// The lines that differ, as `-expected` / `+actual` pairs with their line numbers.
private func lineDiff(expected: String, actual: String) -> String {
  let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
  return (0..<max(old.count, new.count)).compactMap { index in
    let before = index < old.count ? String(old[index]) : nil
    let after = index < new.count ? String(new[index]) : nil
    guard before != after else { return nil }
    return "\(index + 1): -\(before ?? "<none>")\n\(index + 1): +\(after ?? "<none>")"
  }.joined(separator: "\n")
}
