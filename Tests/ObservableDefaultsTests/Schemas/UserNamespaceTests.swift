import Foundation
import TestSupport
import Testing

/// What a program's namespace holds after `import ObservableDefaults`: the published schema's
/// types are not there (they are `ObservableDefaultsSchema`'s, which the umbrella does not
/// re-export), and publishing needs none of them. Each case type-checks a small program with
/// `swiftc` against the modules this build made, as a user's build would see them.
@Suite struct UserNamespaceTests {
  /// The published schema's types: tools' names, not apps'.
  static let schemaTypes = [
    "SettingsSchema", "SettingsSchemaDirectory", "SettingsSchemaFile", "SettingsSchemaError",
    "SettingsSchemaMisfit", "PropertyListObject", "SettingsValueType",
  ]

  /// Type-checks `source` against the package's built modules and its macro plugin.
  func typecheck(_ source: String) throws -> ChildProcess.Result {
    let bin = try ChildProcess.builtProgram("schema-probe").deletingLastPathComponent()
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let temporary = try TemporaryFolder(prefix: "namespace")
    let program = temporary.file("main.swift")
    try Data(source.utf8).write(to: program)
    // The C modules the engines import: SwiftPM's generated maps of the C targets (not those of
    // the host-tool builds), and the system libraries' maps in Sources/.
    let generated = try FileManager.default.contentsOfDirectory(atPath: bin.path)
      .filter { $0.hasSuffix(".build") && !$0.hasSuffix("-tool.build") }
      .map { bin.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
    let system = try FileManager.default.contentsOfDirectory(
      atPath: package.appendingPathComponent("Sources").path
    ).map { package.appendingPathComponent("Sources/\($0)/module.modulemap") }
    let maps = (generated + system).filter { FileManager.default.fileExists(atPath: $0.path) }
    let plugin = bin.appendingPathComponent("ObservableDefaultsMacros-tool")
    return try ChildProcess.runCommand(
      "swiftc",
      [
        "-typecheck", "-swift-version", "6", "-I", bin.appendingPathComponent("Modules").path,
        "-module-cache-path", bin.appendingPathComponent("ModuleCache").path,
        "-load-plugin-executable", "\(plugin.path)#ObservableDefaultsMacros", program.path,
      ] + maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] })
  }

  @Test func theUmbrellaBringsNoSchemaType() throws {
    let uses = Self.schemaTypes.map { "_ = \($0).self" }.joined(separator: "\n")
    let result = try typecheck("import ObservableDefaults\n" + uses + "\n")
    #expect(result.status != 0)
    let unknown = Self.schemaTypes.filter {
      result.error.contains("cannot find '\($0)' in scope")
    }
    #expect(unknown == Self.schemaTypes, "\(result.error)")
  }

  @Test func anAppPublishesAndInstallsItsSchemasWithTheUmbrellaAlone() throws {
    let result = try typecheck(
      """
      import ObservableDefaults

      @ObservableDefaults(suiteName: "com.example.app")
      final class AppSettings {
        /// The name shown in greetings.
        var name = "Fatbobman"
      }

      SettingsSchemaPublisher.isEnabled = false
      let files: [URL] = try SettingsSchemaPublisher.write(
        [AnySettings(AppSettings())], to: URL(fileURLWithPath: "/tmp/schemas"))
      let written: Bool = SettingsSchemaPublisher.waitUntilPublished(
        timeout: SettingsSchemaPublisher.exitTimeout)
      print(files, written, SettingsSchemaPublisher.environmentVariable)

      """)
    #expect(result.status == 0, "\(result.error)")
  }

  @Test func aToolReadsSchemasWithTheSchemaModule() throws {
    let result = try typecheck(
      """
      import ObservableDefaultsSchema

      for file in SettingsSchemaDirectory.allFiles() {
        if case .success(let schema) = file.schema {
          let kinds: [SettingsValueType] = schema.keys.map(\\.valueType)
          print(schema.qualifiedName, kinds)
        }
      }

      """)
    #expect(result.status == 0, "\(result.error)")
  }
}
