import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of schema files held open by its descriptor, its entries named by the bytes the
/// kernel gives: a name that is not UTF-8 is listed and opened as it is (a `String` or `URL`
/// path would replace its bytes with U+FFFD and name no file), and shown with
/// `TerminalText.decoded(_:)`.
final class SchemaFolderHandle: Sendable {
  /// The folder's path, as bytes.
  let path: [UInt8]
  private let descriptor: Int32

  /// A folder opened by ``open(_:in:)`` or ``open(path:)``: takes `descriptor`.
  private init(path: [UInt8], descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// An entry opened for reading, with its type (`S_IFREG`, `S_IFDIR`…) and size.
  struct Entry {
    let descriptor: Int32
    let type: mode_t
    let size: Int
  }

  /// Why an entry could not be opened: the `errno` of the call.
  struct Failure: Error, Equatable {
    let code: Int32
    /// The system's message for ``code``.
    var reason: String { String(cString: strerror(code)) }
  }

  /// The folder at `path`, nil when it is missing, cannot be opened or is no folder (a search
  /// path may name folders that do not exist).
  static func open(path: [UInt8]) -> SchemaFolderHandle? {
    let descriptor = path.withCPath { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    return descriptor < 0 ? nil : SchemaFolderHandle(path: path, descriptor: descriptor)
  }

  /// The path of the entry `name`.
  func path(of name: [UInt8]) -> [UInt8] {
    path.last == UInt8(ascii: "/") ? path + name : path + [UInt8(ascii: "/")] + name
  }

  /// The names of the entries that do not start with `.` (lock and temporary files), in the
  /// order of their bytes; none when the folder cannot be listed.
  func names() -> [[UInt8]] {
    // `closedir` closes the descriptor it is given: it gets a copy.
    let copy = dup(descriptor)
    guard copy >= 0, let stream = fdopendir(copy) else {
      if copy >= 0 { close(copy) }
      return []
    }
    defer { closedir(stream) }
    var names: [[UInt8]] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if name.first != UInt8(ascii: ".") { names.append(name) }
    }
    return names.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Opens the entry `name` for reading, without waiting for a writer (`O_NONBLOCK`: a named
  /// pipe opens at once). `flags` adds to those (`O_NOFOLLOW`).
  ///
  /// - Throws: ``Failure`` with the `errno` of `openat(2)` or `fstat(2)`.
  func openEntry(_ name: [UInt8], flags: Int32 = 0) throws(Failure) -> Entry {
    let descriptor = name.withCPath {
      openat(self.descriptor, $0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags)
    }
    guard descriptor >= 0 else { throw Failure(code: errno) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      close(descriptor)
      throw Failure(code: code)
    }
    return Entry(descriptor: descriptor, type: status.st_mode & S_IFMT, size: Int(status.st_size))
  }

  /// The folder `entry` opened (it takes the descriptor), named `name` in this folder.
  func folder(_ entry: Entry, named name: [UInt8]) -> SchemaFolderHandle {
    SchemaFolderHandle(path: path(of: name), descriptor: entry.descriptor)
  }
}

extension [UInt8] {
  /// Calls `body` with the bytes as a C string (a NUL after them): a path or name as the kernel
  /// takes it, whatever its encoding.
  func withCPath<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
    (self + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }
}
