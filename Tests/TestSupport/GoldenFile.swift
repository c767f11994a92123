import Foundation
import Testing

/// Whether golden files are being recorded: `RECORD_SNAPSHOTS=1` in the environment.
///
/// One switch for every golden file of the package (the editor's screen captures, the macros'
/// expansion texts): `RECORD_SNAPSHOTS=1 swift test --filter <suite>` writes them anew.
public var isRecordingGoldenFiles: Bool {
  ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
}

/// Compares `text` with the golden file at `file`, checked in beside the tests.
///
/// A missing golden file, or any golden file while ``isRecordingGoldenFiles``, is written and the
/// test fails (so a recording is never mistaken for a pass); a mismatch fails with the lines that
/// differ, numbered, as `-expected` / `+actual` pairs.
///
/// - Parameters:
///   - text: The actual text; the file holds it followed by one newline.
///   - file: The golden file.
///   - sourceLocation: Where the failure is reported.
public func expectGoldenFile(
  _ text: String, at file: URL, sourceLocation: SourceLocation = #_sourceLocation
) {
  let actual = text + "\n"
  guard !isRecordingGoldenFiles, let expected = try? String(contentsOf: file, encoding: .utf8)
  else {
    try? FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? actual.write(to: file, atomically: true, encoding: .utf8)
    Issue.record("Recorded \(file.path); run again to compare", sourceLocation: sourceLocation)
    return
  }
  guard expected != actual else { return }
  Issue.record(
    "Differs from \(file.lastPathComponent):\n\(lineDiff(expected: expected, actual: actual))",
    sourceLocation: sourceLocation)
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
