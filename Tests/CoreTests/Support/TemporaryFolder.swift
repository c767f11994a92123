import Foundation
import ObservableDefaultsCore

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("core-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The URL of `name` inside the folder.
  func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Runs `body` with a fresh temporary folder and removes it afterwards.
func withTemporaryFolder<T>(_ body: (TemporaryFolder) async throws -> T) async throws -> T {
  let folder = try TemporaryFolder()
  defer { folder.remove() }
  return try await body(folder)
}

/// Reads a property-list file with Foundation only (independent of the code under test).
func foundationRead(_ url: URL) throws -> [String: Any] {
  let data = try Data(contentsOf: url)
  return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    ?? [:]
}

/// Writes a property-list file with Foundation only, the way a hand edit or another tool would.
func foundationWrite(
  _ values: [String: Any], to url: URL, format: PropertyListSerialization.PropertyListFormat = .xml
) throws {
  let data = try PropertyListSerialization.data(
    fromPropertyList: values, format: format, options: 0)
  try data.write(to: url, options: .atomic)
}

/// Waits until `condition` holds, checking every 10 ms, for at most `seconds`.
///
/// - Returns: Whether the condition held before the deadline.
func poll(seconds: Double = 5, until condition: () throws -> Bool) async rethrows -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if try condition() { return true }
    try? await Task.sleep(nanoseconds: 10_000_000)
  }
  return try condition()
}

/// Runs `body` with a `PropertyListDefaults` for `name` in a fresh temporary folder; flushes it
/// (so no write is left for the exit hook to recreate the folder) and removes the folder after.
func withDefaults<T>(
  _ name: String, _ body: (PropertyListDefaults, TemporaryFolder) async throws -> T
) async throws -> T {
  try await withTemporaryFolder { folder in
    let defaults = PropertyListDefaults(fileURL: folder.file(name))
    defer { try? defaults.flush() }
    return try await body(defaults, folder)
  }
}
