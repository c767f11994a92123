import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Writes no reader could read back are refused before they are acknowledged, with an error that
/// names the key, and the file stays as it was (issue 37, item 3).
@Suite struct WriteRefusalTests {
  static let formats: [PropertyListSerialization.PropertyListFormat] = [.binary, .xml]

  /// A suite of `format` holding `small` = `kept`, and its bytes.
  private func suite(
    _ format: PropertyListSerialization.PropertyListFormat, in folder: TemporaryFolder
  )
    throws -> (url: URL, bytes: Data)
  {
    let url = folder.file("suite.plist")
    try foundationWrite(["small": "kept"], to: url, format: format)
    return (url, try Data(contentsOf: url))
  }

  /// The size a refusal names: `it would make the file N bytes, above …`.
  private func refusedSize(_ reason: String) -> Int? {
    guard let match = reason.firstMatch(of: /would make the file (\d+) bytes/) else { return nil }
    return Int(match.1)
  }

  @Test(arguments: formats)
  func aWriteThatWouldMakeTheFileTooLargeToReadIsRefusedNamingTheKeyAndTheSizes(
    _ format: PropertyListSerialization.PropertyListFormat
  ) async throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(format, in: folder)
    let defaults = PropertyListDefaults(fileURL: url)
    // Data: 256 MiB in binary; in XML, 192 MiB, which Base64 makes more than 256 MiB.
    let byteCount = format == .binary ? FileContents.maximumSize : FileContents.maximumSize / 4 * 3
    defaults.set(Data(count: byteCount), forKey: "big")
    let error = try #require(throws: PropertyListError.self) { try defaults.flush() }
    #expect(error.kind == .invalidValue(key: "big"))
    let size = try #require(refusedSize(error.reason))
    #expect((FileContents.maximumSize + 1)...(FileContents.maximumSize + 100 << 20) ~= size)
    #expect(
      error.reason
        == "it would make the file \(size) bytes, above the 268435456 bytes (256 MiB) a reader "
        + "reads; nothing was written")
    #expect(try Data(contentsOf: url) == before)
    #expect(defaults.lastError == error)
    // The suite stays readable and writable: taking the value back writes the rest.
    defaults.removeObject(forKey: "big")
    defaults.set("more", forKey: "other")
    try defaults.flush()
    #expect(try plistlibRead(url) == ["small": "kept", "other": "more"])
  }

  @Test func aWriteOfSeveralKeysTooLargeToReadNamesThemAll() throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(.binary, in: folder)
    let half = Data(count: FileContents.maximumSize / 2)
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(url: url).apply(["b": .set(half), "a": .set(half + [1])])
    }
    #expect(error.kind == .unwritable)
    #expect(error.reason.hasPrefix("writing a, b would make the file "))
    #expect(try Data(contentsOf: url) == before)
  }
}
