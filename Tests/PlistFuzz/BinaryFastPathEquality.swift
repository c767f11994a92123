import Foundation
import ObservableDefaultsCore

/// The binary scanner's fast path against the full scanner alone on each input
/// (``BinaryPropertyListFastPathComparison``): the same verdicts, refusals, values, entries,
/// spliced bytes and totals; and the re-read of a rewritten file that keeps the changed values
/// only against the whole re-read (``BinaryPropertyListRewriteComparison``).
enum BinaryFastPathEquality {
  /// What differs for a binary input, or nil (nil for any other input).
  static func difference(in data: Data) -> String? {
    guard data.starts(with: "bplist".utf8) else { return nil }
    return BinaryPropertyListFastPathComparison.difference(in: data).map {
      "binary fast path: \($0)"
    } ?? BinaryPropertyListRewriteComparison.difference(in: data).map { "binary re-read: \($0)" }
  }
}
