package import Foundation

/// The binary scanner's re-read of a rewritten file that keeps only the changed values
/// (``BinaryPropertyListScanner/changes(of:comparingTo:)``) against the whole re-read
/// (``BinaryPropertyListScanner/value(of:comparingTo:)``) on the same bytes: what `plist-fuzz`'s
/// read mode checks on each input.
///
/// `package`: used by `plist-fuzz` and the tests only.
package enum BinaryPropertyListRewriteComparison {
  /// What differs between the two re-reads of `data` against values held before — none, the
  /// file's own, and the file's with one key changed, one removed and one added — or nil when
  /// nothing does: the refusal's text, the keys changed, their values, the entries kept. Where
  /// the changed values alone are not read (the top object is not a dictionary, or a key is held
  /// twice), the whole re-read is what a suite falls back to (its refusal included), and nothing
  /// is compared.
  ///
  /// - Parameter data: Any bytes (a binary property list or not).
  package static func difference(in data: Data) -> String? {
    let whole: (root: Any, changedKeys: Set<PropertyListKey>?, entries: PropertyListEntries?)
    do {
      whole = try BinaryPropertyListScanner.value(of: data, comparingTo: [:])
    } catch {
      do {
        // nil: left to the whole re-read, which refuses.
        guard try BinaryPropertyListScanner.changes(of: data, comparingTo: [:]) == nil else {
          return "rewrite: read; the whole re-read refused: \(error.reason)"
        }
        return nil
      } catch let rewrite {
        guard rewrite.reason == error.reason else {
          return "rewrite: refused: \(rewrite.reason); the whole re-read: \(error.reason)"
        }
        return nil
      }
    }
    guard let root = whole.root as? [PropertyListKey: Any] else { return nil }
    var other = root
    if let first = root.keys.min() { other[first] = nil }
    if let last = root.keys.max() { other[last] = "fuzz-changed \(root.count)" }
    other["fuzz-removed"] = 0
    for previous in [[:], root, other] {
      if let difference = difference(in: data, comparingTo: previous) { return difference }
    }
    return nil
  }

  /// What differs between the two re-reads of `data` (a binary file whose top object is a
  /// dictionary) against `previous`, or nil.
  private static func difference(in data: Data, comparingTo previous: [PropertyListKey: Any])
    -> String?
  {
    do {
      let whole = try BinaryPropertyListScanner.value(of: data, comparingTo: previous)
      guard let changes = try BinaryPropertyListScanner.changes(of: data, comparingTo: previous)
      else { return nil }
      let root = whole.root as? [PropertyListKey: Any] ?? [:]
      let changedKeys = Set(changes.set.keys).union(changes.removed)
      guard changedKeys == whole.changedKeys, changes.removed.allSatisfy({ root[$0] == nil }),
        changes.set.allSatisfy({ propertyListValuesEqual(root[$0.key], $0.value) })
      else {
        let (rewrite, full) = (changedKeys.map(\.string).sorted(), whole.changedKeys ?? [])
        return "rewrite: changed \(rewrite); the whole re-read: \(full.map(\.string).sorted())"
      }
      guard changes.entries.keys == whole.entries?.keys,
        changes.entries.fingerprints == whole.entries?.fingerprints
      else { return "rewrite: entries differ from the whole re-read's" }
      return nil
    } catch {
      return "rewrite: refused against values held: \(error.reason)"
    }
  }
}
