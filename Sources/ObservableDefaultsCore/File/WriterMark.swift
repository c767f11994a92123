import Foundation

/// The mark this package's writers leave on a file they write: who wrote it, and which version
/// (see ``DefaultsChange/Writer`` for the rules).
///
/// An extended attribute, `user.observabledefaults.writer`, set on the new file's descriptor
/// before the rename that puts it in place: one line
/// `1 <process id> <inode> <size> <mtime seconds>.<nanoseconds> <reason> <process name>`, where
/// the reason is `write` or `migration`. A file system that keeps no user attributes is written
/// without a mark.
enum WriterMark {
  /// The attribute's name.
  static let attribute = "user.observabledefaults.writer"

  /// The longest mark read: a longer attribute is nobody's mark.
  private static let maximumLength = 512

  /// Marks the file open as `descriptor`, whose contents are written (a failure is ignored: the
  /// change is then read as ``DefaultsChange/Writer/unknown`` or an unmarked write).
  static func attach(to descriptor: FileDescriptor) {
    guard let status = try? descriptor.stat() else { return }
    let reason = DefaultsChange.Writer.current == .migration ? "migration" : "write"
    let name = ProcessInfo.processInfo.processName.filter { $0 != "\n" }
    let process = ProcessInfo.processInfo.processIdentifier
    try? descriptor.setExtendedAttribute(
      attribute, to: "1 \(process) \(stamp(of: status)) \(reason) \(name)")
  }

  /// Who wrote the file at `path`, read as the version of `identity`.
  ///
  /// - Returns: The mark's program (``DefaultsChange/Writer/thisProcess`` for this process, or
  ///   ``DefaultsChange/Writer/migration``); ``DefaultsChange/Writer/unmarkedWrite`` when the
  ///   file has no mark or one of another version; ``DefaultsChange/Writer/unknown`` when
  ///   there is no file, the path names another file now, or the file system keeps no marks.
  static func writer(ofFileAt path: String, readAs identity: FileIdentity?) -> DefaultsChange.Writer
  {
    guard let identity, let status = try? Stat(path),
      FileIdentity(status) == identity
    else { return .unknown }
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.extendedAttribute(
        attribute, ofFileAt: path, maximumLength: maximumLength)
    } catch {
      return error == .noData ? .unmarkedWrite : .unknown
    }
    let fields = String(decoding: bytes, as: UTF8.self)
      .split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
    guard fields.count == 7, fields[0] == "1", let processID = Int32(fields[1]),
      fields[2...4].joined(separator: " ") == stamp(of: status)
    else { return .unmarkedWrite }
    if fields[5] == "migration" { return .migration }
    return processID == ProcessInfo.processInfo.processIdentifier
      ? .thisProcess : .program(name: String(fields[6]), processID: processID)
  }

  /// `<inode> <size> <mtime seconds>.<nanoseconds>`: what tells the version marked from a later
  /// one (an edit in place changes the size or the modification time, a replacement the inode).
  private static func stamp(of status: Stat) -> String {
    "\(status.inode) \(status.size) \(status.modified.tv_sec).\(status.modified.tv_nsec)"
  }
}
