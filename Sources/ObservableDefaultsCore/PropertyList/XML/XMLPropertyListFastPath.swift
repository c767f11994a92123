package import Foundation

/// The switch of the XML scanner's fast path for plain entries
/// (``XMLPropertyListScanner/PlainEntryReader/entry(at:)``), and what its scans find, for the fuzzer and the
/// tests to compare with the fast path off: the same verdict, refusal, values and totals.
package enum XMLPropertyListFastPath {
  /// Whether scanners made in this task read the top dictionary's plain entries by the fast
  /// path. On, except where the fuzzer and the tests compare it with the general walk.
  @TaskLocal package static var isEnabled = true

  /// What the scanner finds in one XML text, in each of its uses.
  package struct Findings {
    /// The root value a read builds (a top dictionary by exact key), or nil when it is refused.
    package let values: Any?
    /// Everything else written out, one line per use: the read's refusal and entries; the
    /// re-read's refusal, entries (key and value places, fingerprints), deferred `<data>` texts
    /// and elements counted; the one-shot write's refusal and places of `keys`.
    package let description: String
  }

  /// What the scans of `data` (UTF-8 XML text) find, the one-shot write's looking for `keys`.
  package static func findings(in data: Data, finding keys: [PropertyListKey]) -> Findings {
    data.withUnsafeBytes { bytes in
      var lines: [String] = []
      var read = XMLPropertyListScanner(
        bytes: bytes, limits: .preferences, building: true, indexing: true)
      let document = lines.scan(&read)
      var reread = XMLPropertyListScanner(
        bytes: bytes, limits: .preferences, building: false, indexing: true, defersTopData: true)
      _ = lines.scan(&reread)
      var write = XMLPropertyListScanner(
        bytes: bytes, limits: .preferences, building: false, indexing: false, finding: keys)
      _ = lines.scan(&write)
      return Findings(values: document?.root, description: lines.joined(separator: "\n"))
    }
  }
}

extension [String] {
  /// Scans the whole document with `scanner` and appends what it found, written out.
  fileprivate mutating func scan(_ scanner: inout XMLPropertyListScanner)
    -> XMLPropertyListScanner.Document?
  {
    var document: XMLPropertyListScanner.Document?
    var line: String
    do throws(PropertyListRejection) {
      document = try scanner.document()
      line = "read"
    } catch {
      line = "refused: \(error.reason)"
    }
    line += ", \(scanner.elementsCounted) elements, deferred \(scanner.deferredData.map(\.text))"
    if let entries = document?.topDictionary {
      line += ", contents \(entries.contents), entries "
      line += entries.entries.map { "\($0.start) \($0.key) \($0.value) \($0.fingerprint)" }
        .joined(separator: "; ")
    }
    if let places = scanner.places {
      let found = places.found.sorted { $0.key < $1.key }.map {
        "\($0.key): \($0.value.value) \($0.value.removal)"
      }
      line += ", places \(found) plain \(places.isPlain) twice \(places.isHeldTwice)"
      line += " end \(places.end.map(String.init) ?? "none")"
    }
    append(line)
    return document
  }
}
