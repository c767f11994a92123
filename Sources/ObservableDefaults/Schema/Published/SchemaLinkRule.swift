import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the symbolic links of one schema folder may lead (``SettingsSchemaDirectory/linkTargets``),
/// with those folders resolved once per listing: entries are opened with `O_NOFOLLOW`, and a
/// link is followed only when the file or folder it leads to lies inside one of them. With no
/// target folder (the user's folder) every link is refused: anyone who can put a link there could
/// make tools read any file of the user's (`~/.ssh/id_ed25519`, `/dev/zero`) as a schema.
struct SchemaLinkRule: Sendable {
  /// Why an entry was not opened.
  struct Refusal: Error {
    /// `errno` of the failed call, nil for a link the rule refuses.
    let code: Int32?
    /// For people: `it is a symbolic link; …`, or the system's message.
    let reason: String
  }

  /// Whether a link may be followed at all (the folder has target folders).
  private let followsLinks: Bool
  /// The target folders, resolved (`realpath`), each ending with `/`.
  private let roots: [[UInt8]]
  /// The target folders as given, for messages.
  private let shownRoots: String

  init(targets: [URL]) {
    followsLinks = !targets.isEmpty
    roots = targets.compactMap { Self.resolve(Array($0.path.utf8)) }.map {
      $0 + [UInt8(ascii: "/")]
    }
    shownRoots = targets.map(\.path).joined(separator: ", ")
  }

  /// Opens the entry `name` of `folder` for reading: itself when it is no link, the file or
  /// folder a link leads to when the rule allows it.
  ///
  /// - Throws: ``Refusal`` naming why: a link the rule refuses, or the `errno` of a failed call
  ///   (`ENOENT` when the entry is gone).
  func open(_ name: [UInt8], in folder: SchemaFolderHandle) throws(Refusal)
    -> SchemaFolderHandle.Entry
  {
    do {
      return try folder.openEntry(name, flags: O_NOFOLLOW)
    } catch  where error.code != ELOOP {
      throw Refusal(code: error.code, reason: error.reason)
    } catch {
      // ELOOP with O_NOFOLLOW: the entry is a symbolic link.
    }
    guard followsLinks else {
      throw Refusal(
        code: nil, reason: "it is a symbolic link, and the user's schema folder takes no links")
    }
    guard let target = Self.resolve(folder.path(of: name)) else {
      throw Refusal(
        code: nil,
        reason: "it is a symbolic link that leads nowhere (\(String(cString: strerror(errno))))")
    }
    guard roots.contains(where: { target.starts(with: $0) }) else {
      throw Refusal(
        code: nil,
        reason: "it is a symbolic link to \(TerminalText.decoded(target)), outside the installed "
          + "schema folders (\(shownRoots))")
    }
    do {
      // An absolute path: openat(2) opens it as it is. O_NOFOLLOW again: what is there now is
      // what was checked, not a link put in its place since.
      return try folder.openEntry(target, flags: O_NOFOLLOW)
    } catch {
      throw Refusal(code: error.code, reason: error.reason)
    }
  }

  /// `path` with every symbolic link resolved (`realpath(3)`), nil when that fails.
  private static func resolve(_ path: [UInt8]) -> [UInt8]? {
    guard let resolved = path.withCPath({ realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
  }
}
