package import Foundation

/// The binary scanner's fast path (``BinaryPropertyListFastPath``) against the full scanner
/// alone on the same bytes, through every entry point that reads a top dictionary: what
/// `plist-fuzz`'s read mode checks on each input.
///
/// `package`: used by `plist-fuzz` and the tests only.
package enum BinaryPropertyListFastPathComparison {
  /// What differs when `data` is read with the fast path and without it — a verdict, a
  /// refusal's text, a value, the entries kept for a re-read, a spliced file's bytes, or the
  /// totals the scan counted (values and bytes it expands to, objects checked, nesting) — or
  /// nil when nothing does.
  ///
  /// - Parameter data: Any bytes (a binary property list or not).
  package static func difference(in data: Data) -> String? {
    let fast = outcomes(of: data)
    let full = BinaryPropertyListFastPath.$isOn.withValue(false) { outcomes(of: data) }
    guard fast.count == full.count else {
      return "entry points: with the fast path \(fast.count); without it \(full.count)"
    }
    for (fast, full) in zip(fast, full) {
      guard fast.text == full.text, propertyListValuesEqual(fast.value, full.value) else {
        return "\(fast.name): with the fast path \(fast.text); without it \(full.text)"
      }
    }
    return nil
  }

  /// What one entry point made of the bytes: its value (nil when refused), the rest as text.
  private typealias Outcome = (name: String, value: Any?, text: String)

  /// The outcomes of the entry points: a file's first read (``BinaryPropertyListScanner/root()``
  /// with its totals, and an open that keeps entries), a re-read against nothing and then
  /// against itself, a rewritten file's re-read keeping the changed values only
  /// (``BinaryPropertyListScanner/changes(of:comparingTo:)``), and the one-shot write's splice.
  private static func outcomes(of data: Data) -> [Outcome] {
    var outcomes = [root(data), splice(data)]
    do {
      // Bytes of their own: the open gives back the pages it is done with.
      let open = try BinaryPropertyListScanner.value(
        releasingPagesOf: Data([UInt8](data)), keepingEntries: true)
      outcomes.append(("open", open.root, "pages \(open.releasedPages) \(text(open.entries))"))
    } catch {
      outcomes.append(("open", nil, "refused: \(error.reason)"))
    }
    do {
      let (root, changed, entries) = try BinaryPropertyListScanner.value(
        of: data, comparingTo: [:])
      let keys = changed.map { $0.sorted().map(\.string) }
      outcomes.append(("re-read", root, "\(keys ?? []) \(text(entries))"))
      let rewrite = try BinaryPropertyListScanner.changes(of: data, comparingTo: [:])
      outcomes.append(
        ("rewrite", rewrite?.set, rewrite.map { "\($0.removed) \(text($0.entries))" } ?? "none"))
      guard let entries, let previous = root as? [PropertyListKey: Any] else { return outcomes }
      let changes = try BinaryPropertyListScanner.changes(
        of: data, since: entries, previous: previous)
      outcomes.append(
        (
          "changes", changes?.set,
          changes.map { "\($0.removed.map(\.string)) \(text($0.entries))" } ?? "none"
        ))
    } catch {
      outcomes.append(("re-read", nil, "refused: \(error.reason)"))
    }
    return outcomes
  }

  /// ``BinaryPropertyListScanner/root()``'s value or refusal, with the totals of the scan.
  private static func root(_ data: Data) -> Outcome {
    var totals = ""
    do {
      let root = try BinaryPropertyListScanner.scanning(data) {
        scanner throws(PropertyListRejection) in
        defer {
          totals =
            "values \(scanner.expansion.values) bytes \(scanner.expansion.bytes) checked "
            + "\(scanner.checkedObjects) deepest \(scanner.deepest) reached \(scanner.reachedBytes)"
        }
        return try scanner.root()
      }
      return ("root", root, "read \(totals)")
    } catch {
      return ("root", nil, "refused: \(error.reason) \(totals)")
    }
  }

  /// The splice of one key (the first the file holds, or a new one) into `data`.
  private static func splice(_ data: Data) -> Outcome {
    let key =
      ((try? BinaryPropertyListScanner.root(of: data)) as? [PropertyListKey: Any])?.keys.min()
      ?? "fuzz-added"
    do {
      switch try BinaryPropertyListSplice.applying([key: .set("fast")], to: data) {
      case nil: return ("splice", nil, "written whole")
      case .unchanged: return ("splice", nil, "unchanged")
      case .spliced(let pieces, let old, let encoded, let copied):
        let bytes = Data(pieces.joined())
        return ("splice", old[key] ?? nil, "\(bytes.base64EncodedString()) \(encoded) \(copied)")
      }
    } catch {
      return ("splice", nil, "refused: \(error)")
    }
  }

  /// Entries kept for a re-read, as text: their keys and fingerprints.
  private static func text(_ entries: PropertyListEntries?) -> String {
    entries.map { "\($0.keys.map(\.string)) \($0.fingerprints)" } ?? "none"
  }
}
