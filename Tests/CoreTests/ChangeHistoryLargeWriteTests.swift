import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A write of more changes than a history holds (``ChangeHistory/maximumBytes``) makes only the
/// lines its append's trim keeps, and the file is what appending every line would have left.
@Suite struct ChangeHistoryLargeWriteTests {
  @Test func aWriteLargerThanTheHistoryLeavesWhatAppendingEveryLineLeft() throws {
    let folder = try TemporaryFolder()
    let history = ChangeHistory(folder: folder.file("history"))
    let value = String(repeating: "v", count: 100)
    let keys = (0..<4_000).map { "key" + String(100_000 + $0).dropFirst() }
    history.record(
      keys.shuffled().map { ChangeHistory.Write(key: PropertyListKey($0), old: nil, new: value) },
      suite: "large")
    let text = try String(contentsOf: history.file(suite: "large"), encoding: .utf8)
    let first = try #require(text.split(separator: "\n").first).split(separator: "\t")
    try #require(first.count == 5)
    // Every line, in key order, as one append of them all wrote them; then the trim's cut: the
    // newest half of the file, from a line's start.
    let all = Array(
      keys.map { "\(first[0])\t\($0)\t(none)\t\(value)\t\(first[4])\n" }.joined().utf8)
    var start = all.count - ChangeHistory.maximumBytes / 2
    while all[start - 1] != UInt8(ascii: "\n") { start += 1 }
    #expect(text == String(decoding: all[start...], as: UTF8.self))
    #expect(text.hasSuffix("\tkey03999\t(none)\t\(value)\t\(first[4])\n"))
  }
}
