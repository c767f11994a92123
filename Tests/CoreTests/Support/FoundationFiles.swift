import Foundation
import ObservableDefaultsCore
import TestSupport

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
