import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A device's copy keeps the quota's totals and its pending keys as each write, refusal, undo,
/// merge and save changes one entry: after any sequence of them they are what counting every
/// entry again gives.
@Suite struct CloudLocalCopyTests {
  let keys = ((0..<24).map { "key-\($0)" } + [String(repeating: "k", count: 65)])
    .map { PropertyListKey($0) }

  /// Totals and pending keys counted again from every entry of `copy`.
  func expectCounted(_ copy: CloudLocalCopy, _ step: Int) {
    let values = copy.values
    let bytes = values.reduce(0) { $0 + CloudQuota.entryBytes(key: $1.key, value: $1.value) }
    #expect(copy.totals.keyCount == values.count, "step \(step)")
    #expect(copy.totals.bytes == bytes, "step \(step)")
    let pending = keys.filter { copy.entry(forKey: $0)?.isPending == true }
    #expect(copy.pendingCount == pending.count, "step \(step)")
    #expect(Set(copy.pendingRecords.keys) == Set(pending), "step \(step)")
  }

  /// A value of 1 byte to 300 KB (four of the largest exceed the 1 MB quota), or a removal.
  func value(_ random: inout SeededGenerator) -> Any? {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: nil
    case 1: Int.random(in: 0..<1_000, using: &random)
    case 2: "v\(Int.random(in: 0..<1_000, using: &random))"
    default: Data(count: Int.random(in: 1...300_000, using: &random))
    }
  }

  @Test func totalsAndPendingKeysAreTheCountedOnesAfter3000RandomChanges() {
    var random = SeededGenerator(seed: 23)
    var copy = CloudLocalCopy()
    var clock = HybridLogicalClock(device: "d")
    var refusals = 0
    for step in 0..<3_000 {
      let key = keys.randomElement(using: &random)!
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<6:
        let before = copy.entry(forKey: key)
        let totals = copy.totals
        do {
          _ = try copy.write(value(&random), forKey: key, clock: &clock)
        } catch {
          refusals += 1
          #expect(copy.totals.bytes == totals.bytes && copy.totals.keyCount == totals.keyCount)
          #expect(copy.entry(forKey: key)?.record.timestamp == before?.record.timestamp)
        }
        if Bool.random(using: &random) { copy.restore(before, forKey: key) }
      case 6..<8:
        copy.apply(CloudRecord(value: value(&random), timestamp: clock.next()), forKey: key)
      default:
        let saved = copy.pendingRecords
        if let rewritten = saved.keys.randomElement(using: &random) {
          _ = try? copy.write(step, forKey: rewritten, clock: &clock)
        }
        copy.markSaved(saved)
      }
      expectCounted(copy, step)
    }
    #expect(refusals > 100)
  }

  @Test func aWriteOfTheValueHeldTakesNoTimestampAndMarksNothing() throws {
    var copy = CloudLocalCopy()
    // A stopped wall clock: each timestamp taken adds one to the counter.
    var clock = HybridLogicalClock(device: "d", wallClock: { 1 })
    #expect(try !copy.write(nil, forKey: "absent", clock: &clock))
    #expect(copy.entry(forKey: "absent") == nil)
    #expect(try copy.write("a", forKey: "name", clock: &clock))
    #expect(try !copy.write("a", forKey: "name", clock: &clock))
    #expect(try copy.write(nil, forKey: "name", clock: &clock))
    #expect(try !copy.write(nil, forKey: "name", clock: &clock))
    #expect(clock.next().counter == 2)
    #expect(copy.pendingCount == 1)
    #expect(copy.totals.keyCount == 0 && copy.totals.bytes == 0)
  }
}
