package import Foundation

/// The bytes of one ``CloudRecord`` as a networked backend stores it: a header whose byte order
/// equals ``CloudTimestamp`` order, then the value as a binary property list (nothing for a
/// removal).
///
///     version   1 byte    (1)
///     time      8 bytes   big-endian, sign bit flipped (so negative times sort first)
///     counter   8 bytes   the same
///     device    UTF-8, then one 0 byte (device identifiers hold no 0 byte)
///     value     a binary property list of a one-element array, absent for a removal
///
/// Because the header sorts as the timestamp does, a store that compares bytes can keep the later
/// write on its own (etcd's transactions compare the stored bytes with the new header). Dates,
/// data, integers and reals round-trip exactly (binary property lists store them bit for bit).
///
/// Records come from the network, written by any device of an account or by whoever can reach
/// the store, so ``decode(_:)`` trusts nothing: the bytes go through the package's binary scanner
/// (``BinaryPropertyListScanner``, with ``limits``), exactly as a suite file does, so a set, a
/// keyed-archiver UID, a shared-reference expansion or a deep nesting is refused with a reason
/// instead of crashing or stalling the device.
package enum CloudRecordCodec {
  static let version: UInt8 = 1

  /// The largest record decoded (4 MiB): a value within ``CloudQuota``'s 1 MB takes at most
  /// about twice that in a binary property list (a 1-byte Boolean still needs a reference and an
  /// offset), plus the header.
  package static let maximumRecordBytes = 4 << 20

  /// The work one record's value may ask for: ``CloudQuota`` counts a value's strings and data
  /// by their UTF-8 bytes and every other element as at least 1 byte, so a value that fits the
  /// 1 MB quota holds at most 2 MiB of string bytes as the file stores them (UTF-16 takes up to
  /// twice UTF-8's bytes for mostly-ASCII text) and about a million elements.
  static let limits = PropertyListLimits(
    maximumDepth: 512, maximumObjects: CloudQuota.maximumTotalBytes + 2,
    maximumBytes: 2 * CloudQuota.maximumTotalBytes)

  /// The header of `timestamp`.
  package static func header(_ timestamp: CloudTimestamp) -> Data {
    var bytes = Data([version])
    for number in [timestamp.time, timestamp.counter] {
      let ordered = UInt64(bitPattern: number) ^ (1 << 63)
      withUnsafeBytes(of: ordered.bigEndian) { bytes.append(contentsOf: $0) }
    }
    bytes.append(contentsOf: timestamp.device.utf8.filter { $0 != 0 })
    bytes.append(0)
    return bytes
  }

  /// The bytes of `record`.
  ///
  /// - Throws: ``CloudRecordError`` when the value is not a property-list value.
  package static func encode(_ record: CloudRecord) throws(CloudRecordError) -> Data {
    var bytes = header(record.timestamp)
    if let value = record.value {
      do throws(PropertyListEncodingFailure) {
        bytes.append(try BinaryPropertyListWriter.data(of: [value]))
      } catch {
        throw CloudRecordError(reason: "the value is not a property list: \(error.reason)")
      }
    }
    return bytes
  }

  /// The record in `bytes`.
  ///
  /// - Throws: ``CloudRecordError`` when the bytes are not a record of this format, are larger
  ///   than ``maximumRecordBytes``, or hold a value ``BinaryPropertyListScanner`` refuses (the
  ///   reason names what was refused).
  package static func decode(_ bytes: Data) throws(CloudRecordError) -> CloudRecord {
    let bytes = Data(bytes)
    guard bytes.count <= maximumRecordBytes else {
      throw CloudRecordError(
        reason: "the record is larger than \(maximumRecordBytes >> 20) MiB (\(bytes.count) bytes)")
    }
    guard bytes.count >= 18, bytes[0] == version else {
      throw CloudRecordError(reason: "not an ObservableDefaults record (\(bytes.count) bytes)")
    }
    func number(at offset: Int) -> Int64 {
      let raw = bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return Int64(bitPattern: raw ^ (1 << 63))
    }
    guard let end = bytes[17...].firstIndex(of: 0) else {
      throw CloudRecordError(reason: "the record's device is not terminated")
    }
    guard let device = String(validating: bytes[17..<end], as: UTF8.self) else {
      throw CloudRecordError(reason: "the record's device is not UTF-8")
    }
    let timestamp = CloudTimestamp(time: number(at: 1), counter: number(at: 9), device: device)
    let rest = Data(bytes[(end + 1)...])
    guard !rest.isEmpty else { return CloudRecord(value: nil, timestamp: timestamp) }
    let parsed: Any
    do throws(PropertyListRejection) {
      guard rest.starts(with: "bplist".utf8) else {
        throw PropertyListRejection(reason: "it is not a binary property list")
      }
      parsed = try BinaryPropertyListScanner.value(of: rest, limits: limits)
    } catch {
      throw CloudRecordError(reason: "the record's value was refused: \(error.reason)")
    }
    guard let array = parsed as? [Any], array.count == 1 else {
      throw CloudRecordError(reason: "the record's value is not a one-element array")
    }
    return CloudRecord(value: array[0], timestamp: timestamp)
  }
}

/// A record that cannot be written to, or was refused when read from, a backend.
package struct CloudRecordError: Error, CustomStringConvertible {
  /// Why, for people.
  package let reason: String
  package var description: String { "cloud record: \(reason)" }
}
