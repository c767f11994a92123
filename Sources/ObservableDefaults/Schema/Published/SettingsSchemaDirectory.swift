import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of published settings schemas: one folder per program, one property-list file per
/// settings class and store (`<program>/<Module.Class>@<suite or container>.plist`).
///
/// Tools read every folder of ``searchPath``: the user's (``user``) first, then the installed
/// ones (``installed``); a file of the user's folder hides the installed file of the same name,
/// as `$XDG_DATA_HOME` comes before `$XDG_DATA_DIRS` in the XDG Base Directory specification.
public struct SettingsSchemaDirectory: Sendable, Equatable {
  /// The folder.
  public let url: URL

  /// The largest schema file read (2 MiB); a larger one is refused with
  /// ``SettingsSchemaError/tooLarge(path:size:limit:)`` without being read.
  public static let maximumFileSize = 2 << 20

  /// A folder of schemas.
  public init(url: URL) {
    self.url = url
  }

  /// `$XDG_DATA_HOME/ObservableDefaults/schemas` when `XDG_DATA_HOME` is an absolute path, else
  /// `$HOME/.local/share/ObservableDefaults/schemas`: where programs publish their schemas.
  /// Read from the environment at each call.
  public static var user: SettingsSchemaDirectory {
    let base = HomeFolder.baseFolder(
      "XDG_DATA_HOME", fallback: ".local/share", environment: ProcessInfo.processInfo.environment)
    return SettingsSchemaDirectory(url: base.appendingPathComponent(subfolder, isDirectory: true))
  }

  /// `<dir>/ObservableDefaults/schemas` for each absolute `dir` of `$XDG_DATA_DIRS` (default
  /// `/usr/local/share:/usr/share`), in that order: where packages install schemas.
  public static var installed: [SettingsSchemaDirectory] {
    let variable = ProcessInfo.processInfo.environment["XDG_DATA_DIRS"] ?? ""
    let folders = variable.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    return (folders.isEmpty ? ["/usr/local/share", "/usr/share"] : folders).map {
      SettingsSchemaDirectory(
        url: URL(fileURLWithPath: $0, isDirectory: true).appendingPathComponent(
          subfolder, isDirectory: true))
    }
  }

  /// ``user``, then ``installed``.
  public static var searchPath: [SettingsSchemaDirectory] { [user] + installed }

  private static let subfolder = "ObservableDefaults/schemas"

  /// The file of `schema` in this folder.
  public func fileURL(for schema: SettingsSchema) -> URL {
    let store =
      switch schema.store {
      case .suite(let name): name
      case .cloud(let container): "cloud-" + container
      }
    return url.appendingPathComponent(Self.fileName(schema.program.name), isDirectory: true)
      .appendingPathComponent(
        Self.fileName(schema.qualifiedName + "@" + store) + ".plist", isDirectory: false)
  }

  /// `name` usable as one file name: characters other than letters, digits, `.`, `-`, `_` and `@`
  /// become `_`, and a leading `.` too (no hidden files, no `..`).
  static func fileName(_ name: String) -> String {
    var result = String(
      name.unicodeScalars.map { scalar in
        scalar.isASCII
          && (CharacterSet.alphanumerics.contains(scalar) || "._-@".unicodeScalars.contains(scalar))
          ? Character(scalar) : "_"
      })
    if result.hasPrefix(".") || result.isEmpty { result = "_" + result.dropFirst() }
    return String(result.prefix(200))
  }

  /// Every schema file of the folder, by program then file name (in the order of their bytes);
  /// unusable files are listed with their error. A name that is not UTF-8 is read as it is and
  /// shown with each such byte as `\xHH` (``SettingsSchemaFile/url``).
  public func files() -> [SettingsSchemaFile] {
    guard let root = SchemaFolderHandle.open(path: Array(url.path.utf8)) else { return [] }
    let entries = root.names().flatMap { program -> [(SchemaFolderHandle, [UInt8])] in
      guard let folder = programFolder(program, in: root) else { return [] }
      return folder.names().filter { $0.count > 6 && $0.suffix(6).elementsEqual(".plist".utf8) }
        .map { (folder, $0) }
    }
    // Read on every core: parsing the files is the cost of a tool's start with many schemas.
    let files = Mutex([SettingsSchemaFile?](repeating: nil, count: entries.count))
    DispatchQueue.concurrentPerform(iterations: entries.count) { index in
      let (folder, name) = entries[index]
      let file = SettingsSchemaFile(named: name, in: folder, directory: self)
      files.withLock { $0[index] = file }
    }
    return files.withLock { $0.compactMap { $0 } }
  }

  /// The program folder `name` of `root`, opened; nil when it is no folder or cannot be opened.
  private func programFolder(_ name: [UInt8], in root: SchemaFolderHandle) -> SchemaFolderHandle? {
    guard let entry = try? root.openEntry(name) else { return nil }
    guard entry.type == S_IFDIR else {
      close(entry.descriptor)
      return nil
    }
    return root.folder(entry, named: name)
  }

  /// Every schema of `folders` (by default ``searchPath``): those of the first folder, then each
  /// file of a later folder that no earlier one has under the same program and name.
  public static func allFiles(in folders: [SettingsSchemaDirectory] = searchPath)
    -> [SettingsSchemaFile]
  {
    var seen: Set<String> = []
    return folders.flatMap { $0.files() }.filter { file in
      seen.insert(file.relativePath).inserted
    }
  }

  /// Writes `schema` to its file in this folder (see ``fileURL(for:)``), atomically, with mode
  /// 0600 in folders of mode 0700 — unless the file already holds the same schema, or a schema
  /// of a newer build of the program (``SettingsSchema/Program/build``).
  ///
  /// - Returns: Whether the file was written.
  /// - Throws: `PropertyListError` when the file cannot be written (it is then unchanged).
  @discardableResult
  public func write(_ schema: SettingsSchema) throws -> Bool {
    let url = fileURL(for: schema)
    let new = schema.propertyList
    return try PropertyListFile(url: url).replaceContents(format: .binary) { old in
      guard !old.isEmpty else { return new }
      if propertyListValuesEqual(old, new) { return nil }
      let published = (try? SettingsSchema(propertyList: old, path: url.path))?.program.build
      if let published, let build = schema.program.build, published > build { return nil }
      return new
    }
  }
}
