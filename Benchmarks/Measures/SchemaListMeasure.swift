import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import SettingsEditor

/// The editor's first paint with 200 published schemas of 50 keys each (20 programs of 10
/// classes, each on a suite of its own holding half its keys), against the same 200 suites
/// listed as raw keys without schemas, in the same run.
///
/// The editor lists every suite of its preferences folder: the measure's suites and schemas
/// are in a folder of their own, so the suites earlier measures left in the workspace (some of
/// a million keys) are not listed and the row does not depend on which measures ran before.
struct SchemaListMeasure {
  let workspace: Workspace
  let runs: Int
  static let schemas = 200
  static let keys = 50

  /// The editor's preferences folder (`XDG_CONFIG_HOME`), its published schemas in `data`.
  private var folder: URL { workspace.folder.appendingPathComponent("schema-list") }

  func run(into table: ResultTable) {
    writeSuitesAndSchemas()
    var with: [Double] = []
    var without: [Double] = []
    for run in 0...runs {  // run 0 warms the file cache
      let published = firstPaint(withSchemas: true)
      let raw = firstPaint(withSchemas: false)
      if run > 0 { (with, without) = (with + [published], without + [raw]) }
    }
    let measured = Samples(with)
    table.add(
      ResultRow(
        measure: "Editor's first paint, 200 published schemas of 50 keys (20 programs)",
        samples: measured, unit: .milliseconds,
        baseline: ("the same 200 suites without schemas", Samples(without)),
        target: Target(text: "≤ 100 ms", isMet: measured.median <= 0.1)))
  }

  /// The time from the worker's start of opening to its first paint, in seconds.
  private func firstPaint(withSchemas: Bool) -> Double {
    let session = EditorMeasure.EditorSession(
      worker: "editor-all", withSchemas ? "schemas" : "suites", workspace: workspace,
      configHome: folder)
    guard let painted = session.firstPaint(timeout: 30) else { abort("schemas: no first paint") }
    let report = session.quit()
    return Double(Int64(bitPattern: painted &- report.openStart)) / 1e9
  }

  /// Writes the suites `bench-schema-NNN` (keys `key-00`… of which the even ones are stored)
  /// and their schemas in the measure's ``folder``, as programs publish them.
  private func writeSuitesAndSchemas() {
    let schemas = SettingsSchemaDirectory(
      url: folder.appendingPathComponent("data/ObservableDefaults/schemas"))
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      abort("cannot create \(folder.path): \(error)")
    }
    for index in 0..<Self.schemas {
      let suite = String(format: "bench-schema-%03d", index)
      let keys = (0..<Self.keys).map { number in
        SettingsSchema.Key(
          name: String(format: "key%02d", number), key: String(format: "key-%02d", number),
          typeName: "Int32", valueType: .integer(bitWidth: 32, signed: true),
          storedForm: .integer, defaultValue: PropertyListObject(number),
          summary: "Setting \(number) of \(suite), as a documentation comment says.",
          range: .init(minimum: Int64(Int32.min), maximum: UInt64(Int32.max)))
      }
      let schema = SettingsSchema(
        program: .init(name: "bench-app-\(index / 10)"), module: "BenchApp",
        className: "Settings\(index)", store: .suite(suite), prefix: "", schemaVersion: nil,
        keys: keys)
      let values = Dictionary(
        uniqueKeysWithValues: keys.enumerated().filter { $0.offset % 2 == 0 }.map {
          ($0.element.key, $0.offset + 1)
        })
      do {
        try schemas.write(schema)
        try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
          .write(to: folder.appendingPathComponent(suite + ".plist"))
      } catch {
        abort("cannot write the schema or suite \(suite): \(error)")
      }
    }
  }

  /// Worker mode `editor-all <schemas | suites> <report-file>`: the editor on every suite of its
  /// preferences folder, with the published schemas or without them, until `q`; then its
  /// ``EditorMeasure/EditorReport``.
  @MainActor
  static func runWorker(mode: String, report: String) {
    EditorMeasure.measureOpening(report: report) {
      do {
        try SettingsEditor(
          suites: SettingsEditor.availableSuites, includesPublishedSchemas: mode == "schemas"
        ).run()
      } catch {
        abort("editor: \(error)")
      }
    }
  }
}
