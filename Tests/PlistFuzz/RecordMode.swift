import Foundation
import ObservableDefaultsCore

/// A cloud record of a real suite's value (`CloudRecordCodec`, what every networked backend
/// stores), mutated as files are (byte flips, interesting bytes in the trailer and offset table,
/// chunks removed, duplicated or moved, truncation), through the decoder every device runs on
/// records from the network. A record that decodes must encode and decode again to the same
/// value and timestamp.
enum RecordMode {
  static func run(_ index: Int, seed: UInt64, fixtures: [Data]) -> Outcome {
    var random = Mutator.generator(index, seed: seed)
    let reader = PropertyListFile(url: URL(fileURLWithPath: "/fuzz/record-\(index).plist"))
    guard let values = try? reader.document(from: fixtures[index % fixtures.count]).values,
      let value = values.values.randomElement(using: &random)
    else { return .refused }
    let timestamp = CloudTimestamp(
      time: Int64.random(in: 0...Int64.max, using: &random), counter: 0, device: "fuzz-\(index)")
    guard
      let encoded = try? CloudRecordCodec.encode(CloudRecord(value: value, timestamp: timestamp))
    else { return .mismatch("a suite's value could not be encoded as a record") }
    var bytes = [UInt8](encoded)
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      Mutator.mutate(&bytes, isXML: false, using: &random)
    }
    guard let decoded = try? CloudRecordCodec.decode(Data(bytes)) else { return .refused }
    do {
      let again = try CloudRecordCodec.decode(CloudRecordCodec.encode(decoded))
      guard again.timestamp == decoded.timestamp,
        ExactEquality.equal(again.value ?? [String: Any](), decoded.value ?? [String: Any]())
      else { return .mismatch("a decoded record changed when written again") }
      return .parsed
    } catch {
      return .mismatch("a decoded record could not be written again: \(error)")
    }
  }
}
