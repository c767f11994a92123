import Foundation
import ObservableDefaultsTesting
import Synchronization
import Testing

@testable import ObservableDefaultsCore

/// A suite opened while the process's watcher runs (the editor reads a suite when it is first
/// shown): another process's change made after the suite read its file and before the file was
/// watched is merged, without any later change.
@Suite struct SuiteOpenGapTests {
  @Test func aKeyAddedBetweenTheReadAndTheWatchIsMerged() async throws {
    DirectoryWatcher.shared.startWatching()
    let folder = try TemporaryFolder(prefix: "suite-open-gap")
    let file = folder.file("gap.plist")
    try PropertyListSerialization.data(fromPropertyList: ["first": 1], format: .binary, options: 0)
      .write(to: file)
    SuiteOpenProbe.betweenReadAndWatch.withLock {
      $0 = { opened in
        guard opened.lastPathComponent == file.lastPathComponent,
          opened.deletingLastPathComponent().lastPathComponent
            == file.deletingLastPathComponent().lastPathComponent
        else { return }
        _ = try? PropertyListFile(url: file).apply(["second": .set(2)])
      }
    }
    defer { SuiteOpenProbe.betweenReadAndWatch.withLock { $0 = nil } }
    let suite = PropertyListDefaults(fileURL: file)
    #expect(suite.persistentValue(forKey: "first") as? Int == 1)
    #expect(await poll { suite.persistentValue(forKey: "second") as? Int == 2 })
  }
}
