import Foundation

/// The names of the temporary files ``AtomicFileWriter`` writes before renaming them over a
/// file: `.<name>.<random number>.tmp` in the file's folder.
enum TemporaryFileNames {
  /// A new temporary file for `target`.
  static func make(for target: URL) -> URL {
    target.deletingLastPathComponent().appendingPathComponent(
      ".\(target.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp")
  }

  /// Removes the temporary files of `target` that writers killed before their rename left
  /// behind. Called with the file's lock held: every writer makes its temporary file under that
  /// lock, so any that exists now is stale.
  ///
  /// - Returns: How many were removed.
  @discardableResult
  static func removeStale(for target: URL) -> Int {
    let folder = target.deletingLastPathComponent().path
    guard let names = FileSystem.namesInFolder(atPath: folder) else { return 0 }
    let prefix = "." + target.lastPathComponent + "."
    var removed = 0
    for name in names {
      guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { continue }
      let number = name.dropFirst(prefix.count).dropLast(".tmp".count)
      guard !number.isEmpty, number.allSatisfy(\.isASCII), UInt32(number) != nil else { continue }
      if FileSystem.removeFile(folder + "/" + name) { removed += 1 }
    }
    return removed
  }
}
