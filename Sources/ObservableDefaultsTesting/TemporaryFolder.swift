public import Foundation
import ObservableDefaultsCore

/// A fresh folder under the system's temporary folder (`$TMPDIR`, else `/tmp`), for one test.
///
/// Tests never write into the user's home: every file they make lives in one of these, and the
/// folder goes away with ``remove()``, at the end of ``withTemporaryFolder(prefix:_:)``, or when
/// the last reference to it goes (a suite that keeps one as a property needs no teardown).
public final class TemporaryFolder: Sendable {
  /// The folder, created by the initializer.
  public let url: URL

  /// Creates `<temporary folder>/<prefix>-<UUID>`.
  ///
  /// - Parameter prefix: The start of the folder's name, to tell which tests left a folder.
  /// - Throws: The error of `FileManager.createDirectory` when the folder cannot be made.
  public init(prefix: String = "observable-defaults-tests") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Creates the folder `url` itself (a test that needs a fixed path shape, such as a screen
  /// capture showing it).
  ///
  /// - Throws: The error of `FileManager.createDirectory` when the folder cannot be made.
  public init(at url: URL) throws {
    self.url = url
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { remove() }

  /// The URL of `name` (a file or folder name, or a relative path) inside the folder.
  public func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  /// Removes the folder and everything in it; a folder already gone is not an error.
  ///
  /// What the suites kept in the folder still hold back is written first (a store writes a
  /// moment after a change), so that no late write makes the folder again.
  public func remove() {
    PropertyListDefaults.flushSuites(inside: url)
    try? FileManager.default.removeItem(at: url)
  }
}

/// Runs `body` with a fresh ``TemporaryFolder`` and removes the folder afterwards, also when
/// `body` throws.
///
/// - Parameters:
///   - prefix: The start of the folder's name.
///   - body: The test's work; its result is returned.
/// - Throws: What `body` throws, or the folder's creation error.
public func withTemporaryFolder<T>(
  prefix: String = "observable-defaults-tests", _ body: (TemporaryFolder) async throws -> T
) async throws -> T {
  let folder = try TemporaryFolder(prefix: prefix)
  defer { folder.remove() }
  return try await body(folder)
}
