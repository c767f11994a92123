/// Who made a change, as exactly as the system can tell.
extension DefaultsChange {
  /// Who made a change (the exact origin of ``DefaultsChange``), as exactly as the system can
  /// tell; ``unknown`` where it cannot.
  ///
  /// A suite file says who wrote it: every writer of this package marks the file it replaces with
  /// an extended attribute, `user.observabledefaults.writer`, set on the new file before the
  /// atomic rename that puts it in place (so the mark and the contents land together). The mark
  /// names the program (its process name and id) and the version of the file it wrote (inode,
  /// size and modification time). A file whose mark is missing or names another version was
  /// changed by a program that does not use this package, or by hand: ``unmarkedWrite``. A file
  /// system without user extended attributes (some network file systems) keeps no mark: the
  /// changes read from it are ``unknown``. A file written several times between two reads of
  /// this process is told as written by its last writer.
  ///
  /// A cloud record names the device that wrote it (``CloudTimestamp/device``): a change from
  /// another device is ``device(_:)``. In this process, a property's `resetValue()` is
  /// ``reset`` and a migration (a ``SuiteMigrations`` run, a value moved from its previous
  /// keys) is ``migration``; other programs see a ``SuiteMigrations`` run as ``migration`` and a
  /// moved value as written by the program that moved it.
  public enum Writer: Sendable, Hashable, CustomStringConvertible {
    /// A write through the package in this process (also one read back from the file, when it
    /// went there without this suite's storage, say through `PropertyListFile`).
    case thisProcess
    /// Another program that uses this package, as the mark of the file it wrote names it.
    ///
    /// - Parameters:
    ///   - name: Its process name (`ProcessInfo.processName`), as it recorded it: print it
    ///     through a filter of control characters.
    ///   - processID: Its process id then (the process may have ended since).
    case program(name: String, processID: Int32)
    /// The file changed without a valid mark of this package's writers: a program that does
    /// not use the package (Foundation's `UserDefaults`, `plutil`, a script) or a hand edit.
    case unmarkedWrite
    /// Another device of the cloud key-value store: the device identifier its record carries
    /// (``CloudTimestamp/device``, for this package's devices `<process id>-<8 hex digits>`).
    case device(String)
    /// A schema migration (``SuiteMigrations``, or a property moved from its previous keys),
    /// run by this process or by another program.
    case migration
    /// A reset to the default in this process (`resetValue()` of a settings property).
    case reset
    /// An administrator: a system-wide defaults or mandatory file of the suite (see
    /// ``DefaultsLayer``) changed, and with it the value the suite gives for the keys.
    case administrator
    /// The system cannot tell: the file system keeps no marks, the file is gone or was replaced
    /// again before it was read, another writer's version was read only while this process
    /// wrote over it (its mark is gone), or keys an account change of the cloud store removed.
    case unknown

    /// For people, e.g. `this process`, `settings-editor (pid 4711)`, `device 4711-1A2B3C4D`,
    /// `hand edit or other program`, `migration`, `reset`, `administrator`, `unknown`.
    public var description: String {
      switch self {
      case .thisProcess: "this process"
      case .program(let name, let processID): "\(name) (pid \(processID))"
      case .unmarkedWrite: "hand edit or other program"
      case .device(let device): "device \(device)"
      case .migration: "migration"
      case .reset: "reset"
      case .administrator: "administrator"
      case .unknown: "unknown"
      }
    }

    /// The writer a change from `origin` has when nothing more is known: ``thisProcess`` for
    /// this process, else ``unknown``.
    ///
    /// - Parameter origin: Where the change was made.
    public init(_ origin: Origin) {
      self = origin == .thisProcess ? .thisProcess : .unknown
    }

    /// The writer of a write made now in this process: ``thisProcess``, or what an enclosing
    /// ``during(_:_:)`` says (``reset``, ``migration``).
    @TaskLocal package static var current: Writer = .thisProcess

    /// Runs `body` with its writes in this process told as made by `writer`.
    package static func during<Result>(_ writer: Writer, _ body: () throws -> Result) rethrows
      -> Result
    {
      try $current.withValue(writer, operation: body)
    }
  }
}
