import Foundation
import ObservableDefaultsCore

/// A mutated file through the readers (validator, then ours or Foundation's), compared with what
/// Foundation reads from the same bytes, and when it parses, through the write path (saved to a
/// fresh file in its format and, for XML, also as binary; read back by our reader and by
/// Foundation and compared exactly, see ``ExactEquality``). The same bytes as a file also go
/// through the one-shot write of one key (``oneShotWrite(_:key:through:)``), which checks the
/// file without building its values: it must refuse exactly what the reader refuses. Every
/// input is also read with its format's scanner fast path and without it, which must agree
/// exactly (``XMLFastPathCheck``, ``BinaryFastPathEquality``), and the one-key read of `key` must
/// refuse what the whole read refuses and give its value (``OneKeyReadEquality``).
enum ReadMode {
  static func run(_ data: Data, index: Int, through file: URL, keepingIn scratch: URL) -> Outcome {
    let reader = PropertyListFile(url: URL(fileURLWithPath: "/fuzz/input-\(index).plist"))
    let document = try? reader.document(from: data)
    // Even inputs change a key the file holds (when it holds one), odd ones add a key.
    let key = index % 2 == 0 ? document?.values.keys.min() ?? "fuzz-added" : "fuzz-added"
    if let failure = XMLFastPathCheck.mismatch(data, key: key)
      ?? BinaryFastPathEquality.difference(in: data)
      ?? OneKeyReadEquality.difference(in: data, key: key)
      ?? oneShotWrite(data, key: key, through: file)
    {
      keep(data, written: file, index: index, in: scratch)
      return .mismatch(failure)
    }
    guard let document else { return .refused }
    var failure: String?
    if let foundation = ExactEquality.foundationValues(data),
      !ExactEquality.equal(foundation, document.values.stringKeyed)
    {
      failure = "read differently from Foundation"
    }
    let formats: [PropertyListSerialization.PropertyListFormat] =
      document.format == .binary ? [.binary] : [document.format, .binary]
    for format in formats where failure == nil {
      failure = roundTrip(document.values.stringKeyed, format: format, through: file)
    }
    guard let failure else { return .parsed }
    keep(data, written: file, index: index, in: scratch)
    return .mismatch(failure)
  }

  /// Saves `values` as a new file in `format`, reads it back with our reader and with Foundation;
  /// returns what went wrong, or nil.
  private static func roundTrip(
    _ values: [String: Any], format: PropertyListSerialization.PropertyListFormat, through file: URL
  ) -> String? {
    try? FileManager.default.removeItem(at: file)
    guard !values.isEmpty else { return nil }  // nothing to save: no file is written
    // A string XML 1.0 cannot hold must be refused in XML, naming its top-level key.
    let refusedKey = format == .xml ? XMLHoldableValues.firstRefused(in: values)?.path[0] : nil
    do {
      let saved = try PropertyListFile(url: file).save(
        [PropertyListKey: PropertyListChange](exactKeys: values.mapValues(PropertyListChange.set)),
        over: PropertyListDocument(format: format))
      if let refusedKey { return "wrote \(refusedKey) with a character XML cannot hold" }
      let back = try PropertyListFile(url: file).read()
      guard let back, ExactEquality.equal(back.values.stringKeyed, values),
        ExactEquality.equal(saved.values.stringKeyed, values)
      else {
        return "changed by a round trip (\(format))"
      }
      guard let written = FileManager.default.contents(atPath: file.path),
        let foundation = ExactEquality.foundationValues(written),
        ExactEquality.equal(foundation, values)
      else { return "written (\(format)) so that Foundation reads other values" }
      return nil
    } catch let error as PropertyListError
      where refusedKey.map({ error.kind == .invalidValue(key: $0) }) ?? false
    {
      return nil
    } catch {
      return "write failed (\(format)): \(error)"
    }
  }

  /// The one-shot write of `key` (``PropertyListFile/write(_:)``) into a file of `data`, against
  /// a read and a write of its document (``PropertyListFile/apply(_:)``) into another copy: the
  /// same error (a refused file left as it was), or the same values and format read back.
  /// Returns what differs, or nil.
  private static func oneShotWrite(_ data: Data, key: PropertyListKey, through file: URL)
    -> String?
  {
    let changes: [PropertyListKey: PropertyListChange] = [key: .set("one-shot")]
    // Without the pauses a writer makes before it takes a file for malformed (most inputs are):
    // they made each refused input cost a second.
    let outcomes = PropertyListFile.$halfWrittenPauses.withValue([]) {
      [true, false].map { isOneShot in
        try? FileManager.default.removeItem(at: file)
        guard FileManager.default.createFile(atPath: file.path, contents: data) else {
          return (outcome: "the input was not written", document: nil as PropertyListDocument?)
        }
        let target = PropertyListFile(url: file)
        do {
          if isOneShot { try target.write(changes) } else { _ = try target.apply(changes) }
          let back = try target.read()
          return ("written (\(back.map { "\($0.format)" } ?? "no file"))", back)
        } catch let error as PropertyListError {
          let kept = FileManager.default.contents(atPath: file.path) == data
          return ("\(error.kind), the file \(kept ? "kept" : "changed")", nil)
        } catch {
          return ("\(error)", nil)
        }
      }
    }
    let (oneShot, whole) = (outcomes[0], outcomes[1])
    guard oneShot.outcome == whole.outcome,
      propertyListValuesEqual(oneShot.document?.values, whole.document?.values)
    else {
      return "one-shot write: \(oneShot.outcome); read and written whole: \(whole.outcome)"
    }
    return nil
  }

  /// Keeps an input whose round trip changed it, and what was written, for a replay.
  private static func keep(_ input: Data, written: URL, index: Int, in scratch: URL) {
    guard ProcessInfo.processInfo.environment["PLIST_FUZZ_KEEP"] != nil else { return }
    try? input.write(to: scratch.appendingPathComponent("mismatch-\(index).input"))
    try? FileManager.default.copyItem(
      at: written, to: scratch.appendingPathComponent("mismatch-\(index).plist"))
  }
}
