import Foundation

/// The bytes the calling thread has written with `write(2)` and its kin so far (`wchar` of
/// `/proc/thread-self/io`, Linux 3.17 and later): around one `doupdate()` on the loop thread,
/// which writes nothing else, the bytes a frame sent to the terminal.
enum ThreadWrites {
  /// The count now, or nil when the kernel does not tell it.
  static func count() -> Int? {
    let descriptor = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 512)
    let length = read(descriptor, &buffer, buffer.count)
    guard length > 0 else { return nil }
    let text = String(decoding: buffer[..<length], as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("wchar:") }) else {
      return nil
    }
    return Int(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces))
  }
}
