import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A path given as bytes, for files and folders whose names are not UTF-8: `FileManager` and
/// `URL` replace such bytes with U+FFFD, so they can neither make nor remove them (nor can
/// ``TemporaryFolder/remove()``: a test removes what it made this way itself).
public struct RawPath: Sendable {
  /// The path.
  public let bytes: [UInt8]

  /// `folder`, then each of `components` after a `/`.
  public init(_ folder: URL, _ components: [UInt8]...) {
    bytes = components.reduce(Array(folder.path.utf8)) { $0 + [UInt8(ascii: "/")] + $1 }
  }

  /// The path below this one, `components` after a `/` each.
  public func appending(_ components: [UInt8]...) -> RawPath {
    RawPath(bytes: components.reduce(bytes) { $0 + [UInt8(ascii: "/")] + $1 })
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether something is there (a link counts, whatever it points to).
  public var exists: Bool {
    var status = stat()
    return call { lstat($0, &status) } == 0
  }

  /// Creates the folder (mode 0700).
  ///
  /// - Throws: ``Failure`` naming the call.
  public func makeFolder() throws {
    guard call({ mkdir($0, 0o700) }) == 0 else { throw Failure(call: "mkdir", code: errno) }
  }

  /// Creates or replaces the file, holding `data`.
  ///
  /// - Throws: ``Failure`` naming the call.
  public func write(_ data: Data) throws {
    let descriptor = call { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
    guard descriptor >= 0 else { throw Failure(call: "open", code: errno) }
    defer { close(descriptor) }
    let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    guard written == data.count else { throw Failure(call: "write", code: errno) }
  }

  /// Removes the file, link or empty folder; nothing there is no error.
  public func remove() {
    if call(unlink) != 0 { _ = call(rmdir) }
  }

  /// A call that failed: its name and `errno`.
  public struct Failure: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public var description: String { "\(call): \(String(cString: strerror(code)))" }
  }

  private func call<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }
}
