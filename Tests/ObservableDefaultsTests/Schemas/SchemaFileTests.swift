import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import TestSupport
import Testing

/// A schema file is input from another program: every unusable one is refused with one error
/// naming the file (and the field), quickly, and nothing is written over it.
@Suite struct SchemaFileTests {
  let temporary: TemporaryFolder
  let directory: SettingsSchemaDirectory

  init() throws {
    temporary = try TemporaryFolder(prefix: "schema-files")
    directory = SettingsSchemaDirectory(url: temporary.url)
  }

  /// A valid file's root: one integer key, as a program would publish it.
  private func root(key: [String: Any] = [:], format: Int = 1) -> [String: Any] {
    let base: [String: Any] = [
      "name": "scrollback", "key": "scrollback", "type": "Int16", "kind": "integer",
      "optional": false, "storedForm": "integer", "default": 1000,
      "range": ["minimum": -32768, "maximum": 32767],
    ]
    return [
      "format": format, "program": ["name": "app"], "module": "App", "class": "Settings",
      "store": ["suite": "com.example.app"], "prefix": "",
      "keys": [base.merging(key) { $1 }],
    ]
  }

  /// Writes `bytes` as `app/<name>` and returns the error of reading it.
  private func error(of bytes: Data, name: String = "App.Settings@com.example.app.plist") throws
    -> SettingsSchemaError?
  {
    let url = try place(name)
    try bytes.write(to: url)
    let files = directory.files()
    try #require(files.count == 1)
    if case .failure(let error) = files[0].schema { return error }
    return nil
  }

  private func place(_ name: String) throws -> URL {
    let folder = temporary.file("app")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent(name)
  }

  private func xml(_ root: Any) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
  }

  private var path: String { temporary.file("app/App.Settings@com.example.app.plist").path }

  @Test func aValidFileIsRead() throws {
    #expect(try error(of: xml(root())) == nil)
    let schema = try directory.files()[0].schema.get()
    #expect(schema.keys[0].valueType == .integer(bitWidth: 16, signed: true))
    #expect(schema.keys[0].range == .init(minimum: -32768, maximum: 32767))
  }

  @Test func aFileThatIsNotAPropertyListIsUnreadable() throws {
    let error = try #require(try error(of: Data("<plist><dict><key>format".utf8)))
    guard case .unreadable(let reported, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(reported == path)
    #expect(error.description.hasPrefix("\(path): cannot be read: "))
  }

  @Test func aFileAboveTheLimitIsNotRead() throws {
    let size = SettingsSchemaDirectory.maximumFileSize + 1
    #expect(
      try error(of: Data(repeating: 0x20, count: size))
        == .tooLarge(path: path, size: size, limit: 2_097_152))
  }

  @Test func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
    let url = try place("App.Settings@com.example.app.plist")
    #expect(mkfifo(url.path, 0o600) == 0)
    let files = directory.files()
    guard case .failure(.unreadable(let reported, let reason)) = files.first?.schema else {
      Issue.record("\(String(describing: files.first?.schema))")
      return
    }
    #expect(reported == path)
    #expect(reason.contains("named pipe"), "\(reason)")
  }

  @Test func aLaterFormatIsRefusedAsSuch() throws {
    #expect(try error(of: xml(root(format: 2))) == .unsupportedFormat(path: path, format: 2))
    #expect(
      SettingsSchemaError.unsupportedFormat(path: path, format: 2).description
        == "\(path): format 2 is newer than this program reads (1); update it")
  }

  @Test func aRootThatIsNotADictionaryIsRefused() throws {
    let error = try #require(try error(of: xml(["format", 1])))
    #expect(error.description.hasPrefix(path + ": "), "\(error)")
  }

  @Test(
    arguments: [
      (["storedForm": "text"], "keys[0].storedForm", #""text" is not a stored form"#),
      (["kind": "colour"], "keys[0].kind", #""colour" is not a kind of value"#),
      (["optional": "yes"], "keys[0].optional", "holds a string, not Bool"),
      (
        ["default": "loud"], "keys[0].default",
        #"is a string ("loud"), not Int16 (an integer from -32768 to 32767)"#
      ),
      (
        ["default": 40_000], "keys[0].default",
        "is an integer (40000), not Int16 (an integer from -32768 to 32767)"
      ),
      (["range": ["minimum": 5, "maximum": 9]], "keys[0].range.minimum", "5 is above 0"),
      (
        ["summary": String(repeating: "x", count: 4097)], "keys[0].summary",
        "longer than 4096 characters"
      ),
      (["choices": ["light"]], "keys[0].choices[0]", "holds a string, not a dictionary"),
    ] as [([String: any Sendable], String, String)])
  func aWrongFieldIsNamed(key: [String: any Sendable], field: String, reason: String) throws {
    #expect(
      try error(of: xml(root(key: key))) == .malformed(path: path, field: field, reason: reason))
  }

  @Test func aMissingFieldIsNamed() throws {
    var root = root()
    root["store"] = ["bucket": "x"]
    #expect(
      try error(of: xml(root))
        == .malformed(path: path, field: "store", reason: "holds neither suite nor cloudContainer"))
    root = self.root()
    root["keys"] = nil
    #expect(try error(of: xml(root)) == .malformed(path: path, field: "keys", reason: "is missing"))
  }

  /// A store name that would lead out of the preferences (or containers') folder is refused: the
  /// editor would otherwise open and write `$XDG_CONFIG_HOME/../../../tmp/x.plist`.
  @Test(
    arguments: [
      ("suite", "../../../tmp/atk/pwned"), ("suite", ".."), ("suite", "a/b"),
      ("cloudContainer", "../elsewhere"), ("suite", ""),
    ])
  func aStoreNameThatLeadsOutOfItsFolderIsRefused(field: String, name: String) throws {
    var root = root()
    root["store"] = [field: name]
    let noun = field == "suite" ? "suite" : "container"
    #expect(
      try error(of: xml(root))
        == .malformed(
          path: path, field: "store.\(field)",
          reason: "\"\(name)\" is not a \(noun) name (one file name: no /, not . or ..)"))
  }

  @Test func moreKeysThanTheLimitAreRefused() throws {
    var root = root()
    // The count is checked before any key is read: empty dictionaries are enough.
    root["keys"] = Array(repeating: [String: Any](), count: 10_001)
    #expect(
      try error(of: xml(root))
        == .malformed(path: path, field: "keys", reason: "10001 keys, more than 10000"))
  }

  @Test func aFileThatDoesNotParseIsNotWrittenOver() throws {
    let garbage = Data("<plist><dict><key>format".utf8)
    let url = try place("App.Settings@com.example.app.plist")
    try garbage.write(to: url)
    let schema = SettingsSchema(
      program: .init(name: "app"), module: "App", className: "Settings",
      store: .suite("com.example.app"), prefix: "", schemaVersion: nil, keys: [])
    #expect(directory.fileURL(for: schema) == url)
    #expect(throws: (any Error).self) { try directory.write(schema) }
    #expect(try Data(contentsOf: url) == garbage)
  }

  /// Issue 22: a program folder or file whose name is not UTF-8 is listed and read (it was
  /// skipped, or reported as gone), its bytes shown as `\xHH`.
  @Test func namesThatAreNotUTF8AreListedWithTheirBytesEscaped() throws {
    let folder = RawPath(temporary.url, Array("app".utf8) + [0xFF])
    let good = folder.appending(Array("App.Settings@com.example.app.plist".utf8))
    let bad = folder.appending(Array("Bad".utf8) + [0xFE] + Array(".plist".utf8))
    defer { for path in [good, bad, folder] { path.remove() } }
    try folder.makeFolder()
    try good.write(xml(root()))
    try bad.write(Data("<plist><dict><key>format".utf8))
    let files = directory.files()
    let shown = temporary.url.path + "/app\\xFF"
    #expect(
      files.map(\.url.path) == [
        shown + "/App.Settings@com.example.app.plist", shown + "/Bad\\xFE.plist",
      ])
    #expect(files.map(\.programFolder) == ["app\\xFF", "app\\xFF"])
    try #require(files.count == 2)
    #expect(try files[0].schema.get().store == .suite("com.example.app"))
    guard case .failure(.unreadable(let path, let reason)) = files[1].schema else {
      Issue.record("\(files[1].schema)")
      return
    }
    #expect(path == shown + "/Bad\\xFE.plist")
    #expect(reason == "XML property list, line 1: <key> is not closed")
  }

  /// Writes a valid schema file at `relativePath` of the temporary folder (folders made).
  private func schemaFile(_ relativePath: String) throws -> URL {
    let url = temporary.file(relativePath)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try xml(root()).write(to: url)
    return url
  }

  /// Issue 22: the user's folder takes no symbolic links (opened with O_NOFOLLOW): a linked
  /// file is refused naming it, a linked program folder is not read and is named too.
  @Test func aLinkInTheUsersFolderIsRefusedNamingTheFile() throws {
    let users = SettingsSchemaDirectory(url: temporary.file("user"))
    let target = try schemaFile("elsewhere/app/App.Settings@com.example.app.plist")
    let link = temporary.file("user/app/App.Settings@com.example.app.plist")
    try FileManager.default.createDirectory(
      at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    try FileManager.default.createSymbolicLink(
      at: temporary.file("user/linked"),
      withDestinationURL: target.deletingLastPathComponent())
    let listing = users.listing()
    #expect(listing.files.map(\.url) == [link])
    let reason = "it is a symbolic link, and the user's schema folder takes no links"
    #expect(listing.files.first?.error == .unreadable(path: link.path, reason: reason))
    #expect(
      listing.refusedFolders.map(\.description)
        == ["\(temporary.file("user/linked").path): not read: \(reason)"])
  }

  /// Issue 22: an installed folder follows a link only into an installed folder; one that leads
  /// elsewhere is refused naming the file and where it leads.
  @Test func anInstalledLinkIsFollowedOnlyIntoAnInstalledFolder() throws {
    let installed = [temporary.file("a"), temporary.file("b")]
    let folder = SettingsSchemaDirectory(url: installed[0], linkTargets: installed)
    let inside = try schemaFile("b/app/App.Settings@com.example.app.plist")
    let outside = try schemaFile("outside/App.Settings@com.example.app.plist")
    try FileManager.default.createDirectory(
      at: temporary.file("a/app"), withIntermediateDirectories: true)
    let followed = temporary.file("a/app/App.Inside@com.example.app.plist")
    let refused = temporary.file("a/app/App.Outside@com.example.app.plist")
    try FileManager.default.createSymbolicLink(at: followed, withDestinationURL: inside)
    try FileManager.default.createSymbolicLink(at: refused, withDestinationURL: outside)
    let files = folder.files()
    #expect(files.map(\.url) == [followed, refused])
    try #require(files.count == 2)
    #expect(try files[0].schema.get().store == .suite("com.example.app"))
    let target = outside.resolvingSymlinksInPath().path
    #expect(
      files[1].error
        == .unreadable(
          path: refused.path,
          reason: "it is a symbolic link to \(target), outside the installed schema folders "
            + "(\(installed[0].path), \(installed[1].path))"))
  }

  @Test func fileNamesAreSanitized() throws {
    let schema = SettingsSchema(
      program: .init(name: "../evil"), module: "App", className: "Settings",
      store: .suite("a/b\u{1B}[2J"), prefix: "", schemaVersion: nil, keys: [])
    #expect(
      directory.fileURL(for: schema).path
        == temporary.url.path + "/_._evil/App.Settings@a_b__2J.plist")
  }
}

extension SettingsSchemaFile {
  /// Why the file holds no schema; nil when it holds one.
  fileprivate var error: SettingsSchemaError? {
    if case .failure(let error) = schema { return error }
    return nil
  }
}
