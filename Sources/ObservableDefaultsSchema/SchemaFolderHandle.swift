import Foundation
import ObservableDefaultsCore

/// A folder of schema files held open by its descriptor, its entries named by the bytes the
/// kernel gives: a name that is not UTF-8 is listed and opened as it is (a `String` or `URL`
/// path would replace its bytes with U+FFFD and name no file), and shown with
/// `TerminalText.decoded(_:)`.
final class SchemaFolderHandle: Sendable {
  /// The folder's path, as bytes.
  let path: [UInt8]
  private let descriptor: FileDescriptor

  /// A folder opened by ``open(_:in:)`` or ``open(path:)``: takes `descriptor`.
  private init(path: [UInt8], descriptor: FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { descriptor.close() }

  /// An entry opened for reading, with its type and size.
  struct Entry {
    let descriptor: FileDescriptor
    let type: FileType
    let size: Int
  }

  /// The folder at `path`, nil when it is missing, cannot be opened or is no folder (a search
  /// path may name folders that do not exist).
  static func open(path: [UInt8]) -> SchemaFolderHandle? {
    guard
      let descriptor = try? FileDescriptor.open(
        path, FileDescriptor.OpenOptions.readOnly.union(.directory))
    else {
      return nil
    }
    return SchemaFolderHandle(path: path, descriptor: descriptor)
  }

  /// The path of the entry `name`.
  func path(of name: [UInt8]) -> [UInt8] {
    path.last == UInt8(ascii: "/") ? path + name : path + [UInt8(ascii: "/")] + name
  }

  /// The names of the entries that do not start with `.` (lock and temporary files), in the
  /// order of their bytes; none when the folder cannot be listed.
  func names() -> [[UInt8]] {
    (descriptor.namesInFolder() ?? []).filter { $0.first != UInt8(ascii: ".") }
      .sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Opens the entry `name` for reading, without waiting for a writer (`O_NONBLOCK`: a named
  /// pipe opens at once). `options` adds to those (`O_NOFOLLOW`: ``FileDescriptor/OpenOptions/noFollow``).
  ///
  /// - Throws: The error of `openat(2)` or `fstat(2)`.
  func openEntry(_ name: [UInt8], options: FileDescriptor.OpenOptions = []) throws(Errno) -> Entry {
    let entry = try FileDescriptor.open(
      name, relativeTo: descriptor, options.union(.readOnly).union(.nonBlocking))
    let status: Stat
    do {
      status = try entry.stat()
    } catch {
      entry.close()
      throw error
    }
    return Entry(descriptor: entry, type: status.type, size: status.size)
  }

  /// The folder `entry` opened (it takes the descriptor), named `name` in this folder.
  func folder(_ entry: Entry, named name: [UInt8]) -> SchemaFolderHandle {
    SchemaFolderHandle(path: path(of: name), descriptor: entry.descriptor)
  }
}
