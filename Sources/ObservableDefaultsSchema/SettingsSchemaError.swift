import Foundation

/// A published schema file that cannot be used. Each case names the file.
public enum SettingsSchemaError: Error, Equatable, CustomStringConvertible {
  /// The file cannot be read, for `reason`.
  case unreadable(path: String, reason: String)
  /// The file holds more than `limit` bytes (``SettingsSchemaDirectory/maximumFileSize``).
  case tooLarge(path: String, size: Int, limit: Int)
  /// The file is not a schema: `field` (such as `keys[3].storedForm`) is missing or wrong, for
  /// `reason`.
  case malformed(path: String, field: String, reason: String)
  /// The file's format is `format`, later than ``SettingsSchema/formatVersion``: a newer
  /// version of the library wrote it.
  case unsupportedFormat(path: String, format: Int)

  /// One line, such as `/usr/share/ObservableDefaults/schemas/myapp/MyApp.Settings@myapp.plist:
  /// keys[3].storedForm: "text" is not a stored form`.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
    case .tooLarge(let path, let size, let limit):
      "\(path): \(size) bytes, more than a schema may hold (\(limit))"
    case .malformed(let path, let field, let reason): "\(path): \(field): \(reason)"
    case .unsupportedFormat(let path, let format):
      "\(path): format \(format) is newer than this program reads (\(SettingsSchema.formatVersion)); update it"
    }
  }
}
