import Foundation
import ObservableDefaultsCore

/// Where the symbolic links of one schema folder may lead (``SettingsSchemaDirectory/linkTargets``),
/// with those folders resolved once per listing: entries are opened with `O_NOFOLLOW`, and a
/// link is followed only when the file or folder it leads to lies inside one of them. With no
/// target folder (the user's folder) every link is refused: anyone who can put a link there could
/// make tools read any file of the user's (`~/.ssh/id_ed25519`, `/dev/zero`) as a schema.
struct SchemaLinkRule: Sendable {
  /// Why an entry was not opened.
  struct Refusal: Error {
    /// The error of the failed call, nil for a link the rule refuses.
    let code: Errno?
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
    roots = targets.compactMap { try? FileSystem.resolvedPath(bytes: Array($0.path.utf8)) }.map {
      $0 + [UInt8(ascii: "/")]
    }
    shownRoots = targets.map(\.path).joined(separator: ", ")
  }

  /// Opens the entry `name` of `folder` for reading: itself when it is no link, the file or
  /// folder a link leads to when the rule allows it.
  ///
  /// - Throws: ``Refusal`` naming why: a link the rule refuses, or the error of a failed call
  ///   (``Errno/noSuchFileOrDirectory`` when the entry is gone).
  func open(_ name: [UInt8], in folder: SchemaFolderHandle) throws(Refusal)
    -> SchemaFolderHandle.Entry
  {
    do {
      return try folder.openEntry(name, options: .noFollow)
    } catch  where error != .tooManySymbolicLinkLevels {
      throw Refusal(code: error, reason: error.description)
    } catch {
      // ELOOP with O_NOFOLLOW: the entry is a symbolic link.
    }
    guard followsLinks else {
      throw Refusal(
        code: nil, reason: "it is a symbolic link, and the user's schema folder takes no links")
    }
    let target: [UInt8]
    do {
      target = try FileSystem.resolvedPath(bytes: folder.path(of: name))
    } catch {
      throw Refusal(code: nil, reason: "it is a symbolic link that leads nowhere (\(error))")
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
      return try folder.openEntry(target, options: .noFollow)
    } catch {
      throw Refusal(code: error, reason: error.description)
    }
  }

}
