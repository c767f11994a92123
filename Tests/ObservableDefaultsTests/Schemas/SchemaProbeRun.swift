import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import TestSupport

/// The `schema-probe` program run as another process in a private home: its preferences, data
/// and state folders lie in a temporary folder, no installed schema folder is read, and no
/// cloud server is configured.
final class SchemaProbeRun {
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder(prefix: "schema-probe")
  }

  /// Where the probe publishes: `$XDG_DATA_HOME/ObservableDefaults/schemas`.
  var published: SettingsSchemaDirectory {
    SettingsSchemaDirectory(url: temporary.file("data/ObservableDefaults/schemas"))
  }

  /// The probe's executable.
  var program: URL {
    get throws { try ChildProcess.builtProgram("schema-probe").resolvingSymlinksInPath() }
  }

  /// The variables that put the probe's folders in the temporary folder; `publishing` is the
  /// value of `OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS` (nil: unset, publishing on).
  func environment(publishing: String? = nil) -> [String: String?] {
    [
      "HOME": temporary.url.path, "XDG_CONFIG_HOME": temporary.file("config").path,
      "XDG_DATA_HOME": temporary.file("data").path, "XDG_STATE_HOME": temporary.file("state").path,
      "XDG_DATA_DIRS": temporary.file("installed").path,
      SettingsSchemaPublisher.environmentVariable: publishing,
      "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": nil, "OBSERVABLE_DEFAULTS_NATS_SERVERS": nil,
    ]
  }

  /// Runs the probe to its end.
  func run(_ arguments: [String], publishing: String? = nil) throws -> ChildProcess.Result {
    try ChildProcess.run(program, arguments, environment: environment(publishing: publishing))
  }

  /// The files the probe published, as `<program>/<file>` paths.
  var publishedNames: [String] {
    published.files().map {
      "\($0.url.deletingLastPathComponent().lastPathComponent)/\($0.url.lastPathComponent)"
    }
  }
}

/// The schema of the probe's `ProbeAppSettings`, as the probe publishes it (program aside).
func probeAppSettingsKeys() -> [SettingsSchema.Key] {
  let themes = ["light", "dark", "sepia"].map {
    SettingsSchema.Choice(name: $0, value: PropertyListObject($0)!)
  }
  return [
    .init(
      name: "displayName", key: "displayName", previousKeys: ["name"], typeName: "String",
      valueType: .string, storedForm: .string, defaultValue: PropertyListObject("Probe"),
      summary: "The name shown in the title bar.",
      discussion: "Shown after the document's name, as `Document — Name`."),
    .init(
      name: "theme", key: "theme", typeName: "Theme",
      valueType: .enumeration(cases: ["light", "dark", "sepia"]), storedForm: .rawString,
      defaultValue: PropertyListObject("light"), summary: "Colours of the window.",
      choices: themes),
    .init(
      name: "scrollback", key: "scrollback", typeName: "Int16",
      valueType: .integer(bitWidth: 16, signed: true), storedForm: .integer,
      defaultValue: PropertyListObject(1000), summary: "Lines kept in the scroll-back buffer.",
      range: .init(minimum: -32768, maximum: 32767)),
    .init(
      name: "fontSize", key: "fontSize", typeName: "Double", valueType: .double,
      storedForm: .real, defaultValue: PropertyListObject(12.5),
      summary: "The font size in points."),
    .init(
      name: "showsToolbar", key: "showsToolbar", typeName: "Bool", valueType: .bool,
      storedForm: .boolean, defaultValue: PropertyListObject(true),
      summary: "Whether the toolbar is shown."),
    .init(
      name: "origin", key: "origin", typeName: "Point", valueType: .codable, storedForm: .json,
      defaultValue: PropertyListObject(Data(#"{"x":10,"y":20}"#.utf8)),
      summary: "Where the window opens."),
    .init(
      name: "lastFolder", key: "lastFolder", typeName: "Optional<String>",
      valueType: .optional(.string), storedForm: .string, defaultValue: nil,
      summary: "The last folder opened, if any."),
    .init(
      name: "homePage", key: "homePage", typeName: "URL", valueType: .url, storedForm: .json,
      defaultValue: PropertyListObject(Data(#""https:\/\/example.com""#.utf8)),
      summary: "The project's web site."),
    .init(
      name: "recentFiles", key: "recentFiles", typeName: "Array<String>", valueType: .array,
      storedForm: .array, defaultValue: PropertyListObject(["notes.txt"]),
      summary: "Files opened lately, oldest first."),
    .init(
      name: "density", key: "density", typeName: "Density", valueType: .codable,
      storedForm: .rawString, defaultValue: PropertyListObject("compact"),
      summary: "How much room a row takes."),
    // An empty doc comment (`///` alone): no summary.
    .init(
      name: "tabWidth", key: "tabWidth", typeName: "Int",
      valueType: .integer(bitWidth: 64, signed: true), storedForm: .integer,
      defaultValue: PropertyListObject(4),
      range: .init(minimum: Int64.min, maximum: UInt64(Int64.max))),
  ]
}
