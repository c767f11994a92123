import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import Testing

/// `TemporaryFolder.remove()` leaves nothing behind: a store writes a moment after a change, so a
/// write still held back when a test ends would make the removed folder again.
@Suite struct TemporaryFolderTests {
  @Test func removingTheFolderWritesWhatItsSuitesHoldBackFirst() throws {
    let folder = try TemporaryFolder(prefix: "temporary-folder-tests")
    let store = folder.suite()
    store.set("late", forKey: "name")

    folder.remove()
    // What the store's own late write does.
    try store.flush()
    #expect(!FileManager.default.fileExists(atPath: folder.url.path))
  }
}
