import Foundation

/// The bytes of one record in etcd: a header whose byte order equals ``CloudTimestamp`` order,
/// then the value as a binary property list (nothing for a removal).
///
///     version   1 byte    (1)
///     time      8 bytes   big-endian, sign bit flipped (so negative times sort first)
///     counter   8 bytes   the same
///     device    UTF-8, then one 0 byte (device identifiers hold no 0 byte)
///     value     a binary property list of a one-element array, absent for a removal
///
/// Because the header sorts as the timestamp does, etcd can keep the later write on its own: a
/// transaction compares the stored bytes with the new header (`value < header`), see
/// ``EtcdSaveTransaction``. Dates, data, integers and reals round-trip exactly (binary property
/// lists store them bit for bit).
enum EtcdRecordCodec {
  static let version: UInt8 = 1

  /// The header of `timestamp`.
  static func header(_ timestamp: CloudTimestamp) -> Data {
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
  /// - Throws: ``EtcdRecordError`` when the value is not a property-list value.
  static func encode(_ record: CloudRecord) throws -> Data {
    var bytes = header(record.timestamp)
    if let value = record.value {
      do {
        bytes.append(
          try PropertyListSerialization.data(fromPropertyList: [value], format: .binary, options: 0)
        )
      } catch {
        throw EtcdRecordError(reason: "the value is not a property list: \(error)")
      }
    }
    return bytes
  }

  /// The record in `bytes`.
  ///
  /// - Throws: ``EtcdRecordError`` when the bytes are not a record of this format.
  static func decode(_ bytes: Data) throws -> CloudRecord {
    let bytes = Data(bytes)
    guard bytes.count >= 18, bytes[0] == version else {
      throw EtcdRecordError(reason: "not an ObservableDefaults record (\(bytes.count) bytes)")
    }
    func number(at offset: Int) -> Int64 {
      let raw = bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return Int64(bitPattern: raw ^ (1 << 63))
    }
    guard let end = bytes[17...].firstIndex(of: 0) else {
      throw EtcdRecordError(reason: "the record's device is not terminated")
    }
    let timestamp = CloudTimestamp(
      time: number(at: 1), counter: number(at: 9),
      device: String(decoding: bytes[17..<end], as: UTF8.self))
    let rest = bytes[(end + 1)...]
    guard !rest.isEmpty else { return CloudRecord(value: nil, timestamp: timestamp) }
    let parsed = try? PropertyListSerialization.propertyList(
      from: Data(rest), options: [], format: nil)
    guard let array = parsed as? [Any], array.count == 1,
      let value = PropertyListValue.normalized(array[0])
    else {
      throw EtcdRecordError(reason: "the record's value is not a property list")
    }
    return CloudRecord(value: value, timestamp: timestamp)
  }
}

/// A record that cannot be written to, or read from, etcd.
struct EtcdRecordError: Error, CustomStringConvertible {
  let reason: String
  var description: String { "etcd record: \(reason)" }
}
