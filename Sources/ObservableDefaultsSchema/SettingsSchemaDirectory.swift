import Dispatch
public import Foundation
import ObservableDefaultsCore

/// A folder of published settings schemas: one folder per program, one property-list file per
/// settings class and store (`<program>/<Module.Class>@<suite or container>.plist`).
///
/// Tools read every folder of ``searchPath``: the user's (``user``) first, then the installed
/// ones (``installed``); a file of the user's folder hides the installed file of the same name,
/// as `$XDG_DATA_HOME` comes before `$XDG_DATA_DIRS` in the XDG Base Directory specification.
///
/// Entries are opened without following symbolic links (`O_NOFOLLOW`): a link is followed only
/// when it leads into one of ``linkTargets`` — never in the user's folder, into any installed
/// folder from an installed one — and is otherwise refused naming the file.
public struct SettingsSchemaDirectory: Sendable, Equatable {
  /// The folder.
  public let url: URL
  /// The folders a symbolic link in this folder (a program folder or a schema file) may lead
  /// into; a link that leads elsewhere is refused naming the file. Empty for the user's folder
  /// and by default: every link is refused, as anyone who can put a link there could make tools
  /// read any of the user's files as a schema. Each of ``installed`` has every installed folder
  /// (a package may link its schemas to another package's).
  public let linkTargets: [URL]

  /// The largest schema file read (2 MiB); a larger one is refused with
  /// ``SettingsSchemaError/tooLarge(path:size:limit:)`` without being read.
  public static let maximumFileSize = 2 << 20

  /// A folder of schemas, whose symbolic links may lead into `linkTargets` only (by default
  /// nowhere: every link is refused).
  public init(url: URL, linkTargets: [URL] = []) {
    self.url = url
    self.linkTargets = linkTargets
  }

  /// `$XDG_DATA_HOME/ObservableDefaults/schemas` when `XDG_DATA_HOME` is an absolute path, else
  /// `$HOME/.local/share/ObservableDefaults/schemas`: where programs publish their schemas.
  /// Read from the environment at each call.
  public static var user: SettingsSchemaDirectory {
    let base = HomeFolder.baseFolder(
      "XDG_DATA_HOME", fallback: ".local/share",
      environment: ProcessEnvironment.values(of: ["XDG_DATA_HOME", "HOME"]))
    return SettingsSchemaDirectory(url: base.appendingPathComponent(subfolder, isDirectory: true))
  }

  /// `<dir>/ObservableDefaults/schemas` for each absolute `dir` of `$XDG_DATA_DIRS` (default
  /// `/usr/local/share:/usr/share`), in that order: where packages install schemas. Their
  /// symbolic links may lead into any of them (``linkTargets``).
  public static var installed: [SettingsSchemaDirectory] {
    let variable = ProcessEnvironment.value("XDG_DATA_DIRS") ?? ""
    let folders = variable.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    let urls = (folders.isEmpty ? ["/usr/local/share", "/usr/share"] : folders).map {
      URL(fileURLWithPath: $0, isDirectory: true).appendingPathComponent(
        subfolder, isDirectory: true)
    }
    return urls.map { SettingsSchemaDirectory(url: $0, linkTargets: urls) }
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
  public func files() -> [SettingsSchemaFile] { listing().files }

  /// Every schema of `folders` (by default ``searchPath``): those of the first folder, then each
  /// file of a later folder that no earlier one has under the same program and name.
  public static func allFiles(in folders: [SettingsSchemaDirectory] = searchPath)
    -> [SettingsSchemaFile]
  {
    listing(in: folders).files
  }

  /// A program folder that was not read, and why: a symbolic link that ``linkTargets`` do not
  /// allow, or a folder that cannot be opened (permission denied).
  package struct RefusedFolder: Sendable, Equatable, CustomStringConvertible {
    /// The folder, each byte of its path that is not UTF-8 as `\xHH`.
    package let path: String
    /// Why it was not read, for people.
    package let reason: String

    /// The folder's name: the program's.
    package var programFolder: String { URL(fileURLWithPath: path).lastPathComponent }

    /// `<path>: not read: <reason>`.
    package var description: String { "\(path): not read: \(reason)" }
  }

  /// The schema files of one folder or of a search path, and the program folders not read.
  package struct Listing: Sendable {
    /// The files, as ``files()`` and ``allFiles(in:)`` list them.
    package var files: [SettingsSchemaFile]
    /// The program folders refused, in the order of the folders.
    package var refusedFolders: [RefusedFolder]
  }

  /// ``allFiles(in:)`` with the program folders of every folder that were not read.
  package static func listing(in folders: [SettingsSchemaDirectory] = searchPath) -> Listing {
    var seen: Set<String> = []
    let listings = folders.map { $0.listing() }
    return Listing(
      files: listings.flatMap(\.files).filter { seen.insert($0.relativePath).inserted },
      refusedFolders: listings.flatMap(\.refusedFolders))
  }

  /// ``files()`` with the program folders that were not read.
  package func listing() -> Listing {
    guard let root = SchemaFolderHandle.open(path: Array(url.path.utf8)) else {
      return Listing(files: [], refusedFolders: [])
    }
    let rule = SchemaLinkRule(targets: linkTargets)
    let programs = root.names()
    var listing = Listing(files: [], refusedFolders: [])
    // A program folder stays open while its files are read: a batch at a time, so that a folder
    // of thousands of programs stays far from the limit of open files.
    for start in stride(from: 0, to: programs.count, by: Self.foldersOpenAtOnce) {
      let entries = programs[start..<min(start + Self.foldersOpenAtOnce, programs.count)]
        .flatMap { program -> [(SchemaFolderHandle, [UInt8])] in
          let folder: SchemaFolderHandle
          do throws(SchemaLinkRule.Refusal) {
            guard let opened = try programFolder(program, in: root, rule: rule) else { return [] }
            folder = opened
          } catch {
            listing.refusedFolders.append(
              RefusedFolder(
                path: TerminalText.decoded(root.path(of: program)), reason: error.reason))
            return []
          }
          return folder.names().filter {
            $0.count > 6 && $0.suffix(6).elementsEqual(".plist".utf8)
          }.map { (folder, $0) }
        }
      listing.files += read(entries, rule: rule)
    }
    return listing
  }

  /// How many program folders a listing holds open at once.
  private static let foldersOpenAtOnce = 64

  /// The schema files `entries` (a folder and a name each), read on every core: parsing them is
  /// the cost of a tool's start with many schemas.
  private func read(_ entries: [(SchemaFolderHandle, [UInt8])], rule: SchemaLinkRule)
    -> [SettingsSchemaFile]
  {
    let files = AnnotatedMutex([SettingsSchemaFile?](repeating: nil, count: entries.count))
    DispatchQueue.concurrentPerform(iterations: entries.count) { index in
      let (folder, name) = entries[index]
      let file = SettingsSchemaFile(named: name, in: folder, rule: rule, directory: self)
      files.withLock { $0[index] = file }
    }
    return files.withLock { $0.compactMap { $0 } }
  }

  /// The program folder `name` of `root`, opened as `rule` allows; nil when it is no folder or
  /// is gone.
  ///
  /// - Throws: ``SchemaLinkRule/Refusal`` when it is refused or cannot be opened.
  private func programFolder(_ name: [UInt8], in root: SchemaFolderHandle, rule: SchemaLinkRule)
    throws(SchemaLinkRule.Refusal) -> SchemaFolderHandle?
  {
    let entry: SchemaFolderHandle.Entry
    do {
      entry = try rule.open(name, in: root)
    } catch  where error.code == .noSuchFileOrDirectory {
      return nil
    }
    guard entry.type == .directory else {
      entry.descriptor.close()
      return nil
    }
    return root.folder(entry, named: name)
  }

  /// Writes `schema` to its file in this folder (see ``fileURL(for:)``), atomically, with mode
  /// 0600 in folders of mode 0700 — unless the file already holds the same schema, or a schema
  /// of a newer build of the program (``SettingsSchema/Program/build``). A file that already
  /// holds the same schema is read without taking the file's lock (a program publishes at every
  /// start, most often a schema already published).
  ///
  /// - Returns: Whether the file was written.
  /// - Throws: `PropertyListError` when the file cannot be written (it is then unchanged).
  @discardableResult
  public func write(_ schema: SettingsSchema) throws -> Bool {
    let url = fileURL(for: schema)
    let new = schema.propertyList
    let file = PropertyListFile(url: url)
    // The same outcome as the locked check below: a writer replaces the file whole, so this read
    // sees a version some writer completed, and the locked check run then would have found the
    // same schema and written nothing. Anything else (no file, other values, a file that does
    // not parse) is decided under the lock.
    if let published = try? file.read()?.values.stringKeyed, !published.isEmpty,
      propertyListValuesEqual(published, new)
    {
      return false
    }
    var written: PropertyListSnapshot?
    return try file.update(known: &written) { document in
      let old = document.values.stringKeyed
      guard old.isEmpty || !propertyListValuesEqual(old, new) else { return false }
      let published = (try? SettingsSchema(propertyList: old, path: url.path))?.program.build
      if let published, let build = schema.program.build, published > build { return false }
      document = PropertyListDocument(
        values: [PropertyListKey: Any](exactKeys: new), format: .binary)
      return true
    }
  }
}
