import Foundation
import Testing

@testable import ObservableDefaultsCore

/// Writes `halfWritten` to `url` (a shorter list written in place over a longer one, not yet
/// cut) and expects a writer's `other = "x"` to be refused through its three half-written
/// retries, the file left as it is; then cuts the file to `length` bytes, as the other
/// program's `ftruncate` does, and expects the same write to go through.
func expectAWriterWaitsForTheCut(of url: URL, holding halfWritten: Data, to length: Int) throws {
  try halfWritten.write(to: url)
  let writer = PropertyListFile(url: url)
  #expect(throws: PropertyListError.self) { try writer.apply(["other": .set("x")]) }
  #expect(PropertyListCounters.counts(for: url).halfWrittenRetries == 3)
  #expect(try Data(contentsOf: url) == halfWritten)
  let handle = try FileHandle(forWritingTo: url)
  try handle.truncate(atOffset: UInt64(length))
  try handle.close()
  _ = try writer.apply(["other": .set("x")])
}
