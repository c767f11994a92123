public import Foundation

extension PropertyListFile {
  /// Saves edits made to a document loaded from this file, without overwriting what another
  /// writer changed since.
  ///
  /// With no changes the file is not touched at all (not even rewritten with equal values).
  /// Otherwise it locks the file and re-reads it (as `apply(_:)` does). When the file changed
  /// since `loaded`, the changes are applied over the new contents only if none of the changed
  /// keys was changed on disk; else nothing is written and ``PropertyListConflictError`` names
  /// those keys. Every other value is kept as it is on disk; the format is kept (binary stays
  /// binary); the write is atomic and goes through a symbolic link to its target, keeping its
  /// permissions.
  ///
  /// - Parameters:
  ///   - changes: Top-level key (exact) → change. A nested edit replaces its top-level key's value with
  ///     the edited copy.
  ///   - loaded: The document as it was read when editing began.
  /// - Returns: The document now on disk (`loaded` itself when there were no changes).
  /// - Throws: ``PropertyListConflictError``, or the ``PropertyListError``s of `apply(_:)`.
  public func save(
    _ changes: [PropertyListKey: PropertyListChange], over loaded: PropertyListDocument
  ) throws -> PropertyListDocument {
    var known: PropertyListSnapshot?
    return try save(changes, over: loaded, known: &known)
  }

  /// ``save(_:over:)`` for an editor that keeps the version of the file it last read or wrote:
  /// when the file is still `known`'s version it is not read again, and `known` becomes the
  /// version written (nil after a failure).
  package func save(
    _ changes: [PropertyListKey: PropertyListChange], over loaded: PropertyListDocument,
    known snapshot: inout PropertyListSnapshot?
  ) throws -> PropertyListDocument {
    guard !changes.isEmpty else { return loaded }
    var conflicts: [String] = []
    try update(known: &snapshot) { document in
      conflicts = changes.keys.filter {
        !propertyListValuesEqual(document.values[$0], loaded.values[$0])
      }.sorted().map(\.string)
      guard conflicts.isEmpty else { return false }
      if document.values.isEmpty { document.format = loaded.format }
      document.apply(changes)
      return true
    }
    guard conflicts.isEmpty else { throw PropertyListConflictError(file: url, keys: conflicts) }
    return snapshot?.document ?? PropertyListDocument()
  }
}

/// Edits that were not saved because another writer changed the same keys since the file was
/// loaded.
public struct PropertyListConflictError: Error, Equatable, CustomStringConvertible {
  /// The file.
  public let file: URL
  /// The edited top-level keys whose value on disk changed since loading, sorted.
  public let keys: [String]

  /// Creates the error for `file` and its conflicting `keys`.
  public init(file: URL, keys: [String]) {
    self.file = file
    self.keys = keys
  }

  /// E.g. `not saved: x.plist changed on disk since it was loaded (keys: a, b); reload it`.
  public var description: String {
    "not saved: \(file.lastPathComponent) changed on disk since it was loaded (keys: "
      + keys.joined(separator: ", ") + "); reload it to see the new values"
  }
}
