package import Foundation
package import ObservableDefaultsCore

/// Records no writer of this package makes, for planting in a container the way a hostile or
/// broken device of the account could: every backend's tests check that devices refuse them and
/// go on syncing.
package enum HostileCloudRecords {
  /// The timestamp of the planted records.
  package static let timestamp = CloudTimestamp(
    time: 1_764_420_000_000_000, counter: 0, device: "planter")

  /// A record of ``timestamp`` whose value is the binary property list `objects` (objects as in
  /// ``BinaryPropertyListBytes/file(_:top:)``).
  package static func record(value objects: [[UInt8]]) -> Data {
    CloudRecordCodec.header(timestamp) + BinaryPropertyListBytes.file(objects)
  }

  /// `[set("x")]`: a record of 74 bytes that crashed every device reading it with Foundation.
  package static var setRecord: Data {
    record(value: [[0xA1, 1], [0xC1, 2], [0x51, UInt8(ascii: "x")]])
  }

  /// `[a0]` where each `a_i` is `[a_(i+1), a_(i+1)]`: 2⁴⁰ values once expanded, in 231 bytes.
  package static var expandingRecord: Data {
    let arrays = (0..<40).map { index in [0xA2, UInt8(2 + index), UInt8(2 + index)] }
    return record(value: [[0xA1, 1]] + arrays + [[0x51, UInt8(ascii: "x")]])
  }
}
