import Foundation

/// One version of a file on disk as this process last read or wrote it: its identity, a hash of
/// its bytes, and whether the identity alone now tells it from any later version.
///
/// Metadata alone cannot prove a file unchanged (see ``FileIdentity``: a same-size rewrite in
/// place within one timestamp tick keeps every field), and a wrong "unchanged" is data loss: the
/// process keeps its old values and its next flush writes them back over the other program's
/// change. So a version is taken as current only when its identity matches and either its
/// bytes were confirmed after its timestamps settled (from then on, any write changes the
/// identity) or its bytes hash the same now (``PropertyListFile/isStill(_:)``).
struct FileVersion: Equatable, Sendable {
  /// The file's identity when read or written.
  var identity: FileIdentity
  /// ``ByteHash`` of the file's bytes (a per-process seed: never stored).
  var contentHash: UInt64
  /// Whether the bytes were found unchanged at a moment the identity was settled
  /// (``FileIdentity/isSettled(at:)``): later writes then always change the identity.
  var isConfirmed = false

  /// The version read or written as the file of `identity`, whose bytes' ``ByteHash`` is
  /// `contentHash` (taken as they were read or written: ``FileContents/read(_:maximumSize:)``,
  /// ``AtomicFileWriter/writeHashed(_:)``).
  init(identity: FileIdentity, contentHash: UInt64) {
    self.identity = identity
    self.contentHash = contentHash
  }
}

extension PropertyListFile {
  /// Whether the file on disk is still `version`: the same identity, and — until the version is
  /// confirmed — the same bytes (the file is read and hashed, not parsed). Marks `version`
  /// confirmed when the bytes are unchanged and the identity has settled since.
  ///
  /// - Returns: false when the file changed, is gone, or cannot be read (read it again).
  func isStill(_ version: inout FileVersion) -> Bool {
    guard FileIdentity.ofFile(atPath: url.path) == version.identity else { return false }
    if version.isConfirmed { return true }
    // The moment before reading: a write the read does not see comes after it.
    let moment = FileIdentity.now()
    PropertyListCounters.count(\.confirmations, path: url.resolvingSymlinksInPath().path)
    guard let (hash, identity) = try? FileContents.contentHash(of: url),
      identity == version.identity, hash == version.contentHash
    else { return false }
    version.isConfirmed = identity.isSettled(at: moment)
    return true
  }

  /// The file's bytes when they are `version`'s, from one read of the whole file: for a writer
  /// that edits the text (an XML flush read and hashed a 67 MB text twice, once here and once to
  /// edit it). Unlike ``isStill(_:)``, the bytes are always hashed, confirmed version or not: a
  /// writer splices its changes at the positions it knows from `version`'s text, and another
  /// program may write the file in place between the identity check and the read (the identity
  /// taken before a read says nothing about the bytes read). Marks `version` confirmed as
  /// ``isStill(_:)`` does.
  ///
  /// - Returns: nil when the file changed, is gone, or cannot be read.
  func textIfStill(_ version: inout FileVersion) -> Data? {
    guard FileIdentity.ofFile(atPath: url.path) == version.identity else { return nil }
    let moment = FileIdentity.now()
    guard let (text, identity, hash) = try? readData(), identity == version.identity,
      hash == version.contentHash
    else { return nil }
    if !version.isConfirmed {
      PropertyListCounters.count(\.confirmations, path: url.resolvingSymlinksInPath().path)
      version.isConfirmed = identity.isSettled(at: moment)
    }
    return text
  }
}
