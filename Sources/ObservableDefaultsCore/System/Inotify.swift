#if canImport(Glibc)
  import Glibc
#endif

/// An inotify instance (`inotify(7)`): watches of paths, and the events the kernel queues for
/// them, read without blocking.
struct Inotify: Sendable {
  /// One event: the watch it concerns, what happened, and the name of the file in a watched
  /// folder it happened to (empty for the folder itself).
  struct Event {
    let watch: Int32
    let mask: UInt32
    let name: String
  }

  /// The descriptor events are read from (for a dispatch read source).
  let descriptor: FileDescriptor

  /// A new non-blocking, close-on-exec instance (`inotify_init1(2)`).
  init() throws(Errno) {
    let raw = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard raw >= 0 else { throw Errno.current }
    descriptor = FileDescriptor(rawValue: raw)
  }

  /// Watches `path` for the events of `mask` (`inotify_add_watch(2)`); a path watched already
  /// keeps its watch, with the new mask (or both with `IN_MASK_ADD`).
  ///
  /// - Returns: The watch, as events name it.
  func addWatch(_ path: String, mask: UInt32) throws(Errno) -> Int32 {
    try Errno.retryingInterrupts { inotify_add_watch(descriptor.rawValue, path, mask) }
  }

  /// Ends the watch `watch` (`inotify_rm_watch(2)`); the kernel then queues `IN_IGNORED` for it.
  func removeWatch(_ watch: Int32) {
    _ = inotify_rm_watch(descriptor.rawValue, watch)
  }

  /// The events queued now (empty when there are none), read into `buffer`.
  func readEvents(using buffer: inout [UInt8]) -> [Event] {
    var events: [Event] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { bytes in
        (try? descriptor.read(into: bytes.baseAddress!, count: bytes.count)) ?? 0
      }
      if count <= 0 { return events }
      buffer.withUnsafeBytes { bytes in
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          let nameStart = offset + MemoryLayout<inotify_event>.size
          let nameBytes = bytes[nameStart..<nameStart + Int(event.len)].prefix { $0 != 0 }
          events.append(
            Event(
              watch: event.wd, mask: event.mask, name: String(decoding: nameBytes, as: UTF8.self)))
          offset = nameStart + Int(event.len)
        }
      }
    }
  }
}
