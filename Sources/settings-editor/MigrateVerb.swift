import Foundation
import ObservableDefaults

/// `migrate <suite> [--dry-run]`: brings a suite to the schema version this program's settings
/// class for it declares (``VersionedSettings``), or shows what that would change.
enum MigrateVerb {
  /// The schemas of this program's versioned settings classes, by suite.
  static let schemas: [String: SuiteMigrations] = [
    "com.example.account": AccountSettings.migrations
  ]

  /// Runs the verb and returns what it prints.
  /// - Throws: ``VerbError`` when no class declares a schema for `suite`; the suite's
  ///   ``PropertyListError`` or a step's error (nothing is written then).
  static func run(suite: String, dryRun: Bool) throws -> String {
    guard let migrations = schemas[suite] else {
      throw VerbError.failure(
        "no settings class of this program declares a schema for \(suite) (known: \(schemas.keys.sorted().joined(separator: ", ")))"
      )
    }
    guard let defaults = PropertyListDefaults(suiteName: suite) else {
      throw VerbError.usage(.migrate, "bad suite name \(suite)")
    }
    let before = defaults.exactPersistentValues
    let plan = dryRun ? try defaults.migrationPlan(migrations) : try defaults.migrate(migrations)
    guard !plan.steps.isEmpty else {
      return "\(suite) is at schema version \(plan.recordedVersion); nothing to do"
    }
    var lines = [
      "\(suite): schema version \(plan.recordedVersion) → \(migrations.version)\(dryRun ? " (dry run, nothing written)" : "")"
    ]
    lines += plan.steps.map { "  step \($0.version): \($0.summary)" }
    lines += plan.changedKeys.map { key in
      "  \(key): \(rendered(before[key])) → \(rendered(plan.values[key]))"
    }
    return lines.joined(separator: "\n")
  }

  private static func rendered(_ value: Any?) -> String {
    value.map { PropertyListText.renderLine($0) } ?? "(none)"
  }
}
