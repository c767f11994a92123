import Foundation

/// The permission bits of the file or folder at `url` (`0o600`, `0o700`…), as `stat` gives them.
///
/// - Throws: The error of `FileManager.attributesOfItem(atPath:)` when there is nothing there.
public func permissions(of url: URL) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
  return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
}
