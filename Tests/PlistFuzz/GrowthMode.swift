import Foundation
import ObservableDefaultsCore

/// Random flushes of a real suite through the binary draft a suite writes with: scalars, arrays,
/// nested dictionaries and data rewritten, keys added and removed. After every flush the file
/// must read back exactly and be at most twice a fresh file of the same values plus 8 KiB (the
/// bound `SuiteFileGrowthTests` asserts); a flush the draft refuses makes a new draft, as a
/// suite does.
enum GrowthMode {
  /// Flushes per input.
  static let flushes = 8

  static func run(_ index: Int, seed: UInt64, fixtures: [Data]) -> Outcome {
    var random = Mutator.generator(index, seed: seed)
    let reader = PropertyListFile(url: URL(fileURLWithPath: "/fuzz/growth-\(index).plist"))
    guard var values = try? reader.document(from: fixtures[index % fixtures.count]).values else {
      return .refused
    }
    // At most 200 of the suite's keys, so an input stays small.
    values = Dictionary(
      uniqueKeysWithValues: values.sorted { $0.key < $1.key }.prefix(200).map { ($0.key, $0.value) }
    )
    do {
      var draft = try BinaryPropertyListDraft(values: values)
      for flush in 0..<flushes {
        var changes: [PropertyListKey: PropertyListChange] = [:]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let key =
            Bool.random(using: &random) && !values.isEmpty
            ? values.keys.randomElement(using: &random)!
            : PropertyListKey("fuzz \(Int.random(in: 0..<50, using: &random))")
          changes[key] =
            Int.random(in: 0..<5, using: &random) == 0 ? .remove : .set(value(&random, depth: 0))
        }
        var document = PropertyListDocument(values: values, format: .binary)
        document.apply(changes)
        values = document.values
        if try !draft.apply(changes) { draft = try BinaryPropertyListDraft(values: values) }
        let data = try draft.data()
        let fresh = try BinaryPropertyListDraft(values: values).data().count
        guard data.count <= 2 * fresh + 8192 else {
          return .mismatch("flush \(flush): \(data.count) bytes for \(fresh) of values")
        }
        guard let back = try? reader.document(from: data).values,
          ExactEquality.equal(back.stringKeyed, values.stringKeyed)
        else { return .mismatch("flush \(flush): the file reads back other values") }
      }
      return .parsed
    } catch {
      return .mismatch("the draft refused a value: \(error.reason)")
    }
  }

  /// A random value: a scalar, or an array of up to 60 elements, a dictionary of up to 12 or
  /// data of up to 4 KB (a recent-files list, a nested settings group, an image).
  private static func value(_ random: inout SplitMix64, depth: Int) -> Any {
    switch Int.random(in: 0..<(depth < 1 ? 8 : 5), using: &random) {
    case 0: return "text \(Int.random(in: 0..<10_000, using: &random))"
    case 1: return Int.random(in: -1_000_000...1_000_000, using: &random)
    case 2: return Bool.random(using: &random)
    case 3: return Double(Int.random(in: 0..<1_000, using: &random)) / 16
    case 4:
      return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<1_000, using: &random)))
    case 5:
      return (0..<Int.random(in: 0..<60, using: &random)).map { _ in
        value(&random, depth: depth + 1)
      }
    case 6:
      return Dictionary(
        uniqueKeysWithValues: (0..<Int.random(in: 0..<12, using: &random)).map {
          ("k\($0)", value(&random, depth: depth + 1))
        })
    default:
      return Data(
        (0..<Int.random(in: 0..<4_096, using: &random)).map { UInt8(truncatingIfNeeded: $0) })
    }
  }
}
