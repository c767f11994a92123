import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A write of a suite file makes one event that names the file, the rename that puts it in
/// place: the written file is closed before the rename, so its close (`IN_CLOSE_WRITE`) names the
/// temporary file. Closed after the rename, the close named the suite file too, and every
/// process watching it took it for a second change and read and hashed the file again when its
/// re-read had already begun (issue 42, item 5: 36.6 M instructions a 50 MB change).
@Suite struct AtomicWriteEventTests {
  /// The events of the folder's watch that name `url`'s file, from `change` until a sentinel
  /// file written after it is seen (inotify delivers one instance's events in order).
  private func events(naming url: URL, during change: () throws -> Void) async throws -> [UInt32] {
    let inotify = try Inotify()
    defer { inotify.descriptor.close() }
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
    _ = try inotify.addWatch(url.deletingLastPathComponent().path, mask: mask)
    try change()
    let sentinel = url.deletingLastPathComponent().appendingPathComponent("sentinel")
    try Data("sentinel".utf8).write(to: sentinel)
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var masks: [UInt32] = []
    var sentinelSeen = false
    #expect(
      await poll {
        for event in inotify.readEvents(using: &buffer) {
          if event.name == url.lastPathComponent { masks.append(event.mask) }
          if event.name == "sentinel", event.mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
            sentinelSeen = true
          }
        }
        return sentinelSeen
      })
    return masks
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
  func aWriteIsOneRenameOntoTheFile(format: PropertyListSerialization.PropertyListFormat)
    async throws
  {
    let folder = try TemporaryFolder(prefix: "atomic-write-event")
    defer { folder.remove() }
    let url = folder.file("suite.plist")
    try foundationWrite(["a": "1"], to: url, format: format)
    let masks = try await events(naming: url) {
      _ = try PropertyListFile(url: url).apply(["a": .set("2")])
    }
    #expect(masks == [UInt32(IN_MOVED_TO)])
  }
}
