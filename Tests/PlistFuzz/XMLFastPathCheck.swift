import Foundation
import ObservableDefaultsCore

/// Read mode's check of the XML scanner's fast path for plain entries: every XML input is scanned
/// with it on and off (``XMLPropertyListFastPath/isEnabled``), as a read, a re-read and a
/// one-shot write of `key` scan it; the verdicts, refusals, values, entries, places and element
/// counts must be the same.
enum XMLFastPathCheck {
  /// What differs with the fast path off, or nil (also for a binary property list).
  static func mismatch(_ data: Data, key: PropertyListKey) -> String? {
    guard !data.starts(with: Array("bplist".utf8)) else { return nil }
    let fast = XMLPropertyListFastPath.findings(in: data, finding: [key])
    let general = XMLPropertyListFastPath.$isEnabled.withValue(false) {
      XMLPropertyListFastPath.findings(in: data, finding: [key])
    }
    guard fast.description == general.description else {
      return "XML fast path: \(fast.description.prefix(300)); general walk: "
        + "\(general.description.prefix(300))"
    }
    guard propertyListValuesEqual(fast.values, general.values) else {
      return "XML fast path: other values than the general walk"
    }
    return nil
  }
}
