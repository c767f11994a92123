public import Foundation
import ObservableDefaultsCore

/// One file of a ``SettingsSchemaDirectory``.
public struct SettingsSchemaFile: Sendable {
  /// The file. A byte of its path that is not UTF-8 is written `\xHH` here (`\xFF`), as tools
  /// show it: such a URL names the file for people, not for `FileManager`.
  public let url: URL
  /// The folder it was found in.
  public let directory: SettingsSchemaDirectory
  /// The schema it holds, or why it holds none: read once, when the file is listed.
  public let schema: Result<SettingsSchema, SettingsSchemaError>
  /// The file's path as the kernel names it.
  private let path: [UInt8]

  /// Reads the file `name` of `folder`, opened as `rule` allows.
  init(
    named name: [UInt8], in folder: SchemaFolderHandle, rule: SchemaLinkRule,
    directory: SettingsSchemaDirectory
  ) {
    path = folder.path(of: name)
    let shown = TerminalText.decoded(path)
    url = URL(fileURLWithPath: shown, isDirectory: false)
    self.directory = directory
    schema = Result { () throws(SettingsSchemaError) in
      try Self.read(name, in: folder, rule: rule, shownAs: shown)
    }
  }

  /// `<program>/<file name>`: what a file of another folder hides it by.
  var relativePath: String { programFolder + "/" + url.lastPathComponent }

  /// The name of the program folder the file lies in.
  public var programFolder: String { url.deletingLastPathComponent().lastPathComponent }

  /// Whether the program that published the schema is gone: it recorded an executable that no
  /// longer exists. A schema installed without an executable never counts as gone.
  public var isProgramGone: Bool {
    guard case .success(let schema) = schema, let executable = schema.program.executable else {
      return false
    }
    return !FileManager.default.fileExists(atPath: executable)
  }

  /// Deletes the file (the entry itself: a symbolic link, not its target), then its program
  /// folder when that is empty now (`rmdir`: never anything else in it).
  ///
  /// - Throws: `PropertyListError` of kind `.unwritable` naming the file and the reason.
  package func remove() throws {
    do {
      try FileSystem.removeFile(bytes: path)
    } catch {
      throw PropertyListError(file: url, kind: .unwritable, reason: error.description)
    }
    try? FileSystem.removeEmptyFolder(
      bytes: Array(path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)]))
  }

  /// Reads the schema file `name` of `folder`, opened as `rule` allows (`shown` in errors): at most
  /// ``SettingsSchemaDirectory/maximumFileSize`` bytes, parsed with the checks of every
  /// property-list file of this library (`PropertyListFile`).
  private static func read(
    _ name: [UInt8], in folder: SchemaFolderHandle, rule: SchemaLinkRule, shownAs shown: String
  ) throws(SettingsSchemaError) -> SettingsSchema {
    let entry: SchemaFolderHandle.Entry
    do {
      entry = try rule.open(name, in: folder)
    } catch {
      throw .unreadable(
        path: shown,
        reason: error.code == .noSuchFileOrDirectory ? "the file is gone" : error.reason)
    }
    defer { entry.descriptor.close() }
    let limit = SettingsSchemaDirectory.maximumFileSize
    if entry.type == .regular, entry.size > limit {
      throw .tooLarge(path: shown, size: entry.size, limit: limit)
    }
    let values: [String: Any]
    do {
      // Read from the descriptor: the very file opened above, whatever was put at its name since.
      let file = URL(fileURLWithPath: shown)
      let contents = try FileContents.read(
        descriptor: entry.descriptor, shownAs: file, maximumSize: limit)
      values = try PropertyListFile(url: file).document(from: contents).values.stringKeyed
    } catch let error as PropertyListError {
      throw .unreadable(path: shown, reason: error.reason)
    } catch {
      throw .unreadable(path: shown, reason: "\(error)")
    }
    return try SettingsSchema(propertyList: values, path: shown)
  }
}
