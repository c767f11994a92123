import Foundation

/// A folder that stands for `/etc/xdg` in a test (point `XDG_CONFIG_DIRS` at it, or hand it to
/// a suite): where an administrator writes a suite's system-wide defaults (`<suite>.plist`) and
/// mandatory values (`ObservableDefaults/mandatory/<suite>.plist`). Tests never write `/etc/xdg`.
public struct SystemConfigFolder: Sendable {
  /// The folder (it need not exist until a file is written).
  public let url: URL

  /// The folder at `url`.
  public init(_ url: URL) {
    self.url = url
  }

  /// The system-wide defaults file of `suite`.
  public func defaultsFile(of suite: String) -> URL {
    url.appendingPathComponent(suite + ".plist")
  }

  /// The mandatory file of `suite`.
  public func mandatoryFile(of suite: String) -> URL {
    url.appendingPathComponent("ObservableDefaults/mandatory/\(suite).plist")
  }

  /// Writes `values` as an administrator would (an XML property list, atomically, the folders
  /// made on the way): the system-wide defaults of `suite`, or (`mandatory`) its mandatory
  /// values.
  ///
  /// - Returns: The file.
  /// - Throws: The error of making a folder, serializing or writing.
  @discardableResult
  public func write(_ values: [String: Any], suite: String, mandatory: Bool = false) throws -> URL {
    let file = mandatory ? mandatoryFile(of: suite) : defaultsFile(of: suite)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
      .write(to: file, options: .atomic)
    return file
  }
}
