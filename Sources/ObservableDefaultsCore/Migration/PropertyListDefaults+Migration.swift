import Foundation

extension PropertyListDefaults {
  /// Brings the suite's file to `migrations`' schema version (see ``SuiteMigrations`` for the
  /// rules: under the file's lock, each step once, one atomic write), after writing what this
  /// process has pending; then re-reads the file, so observers of every instance hear about the
  /// changed keys.
  ///
  /// - Returns: What was done (no steps when the suite was up to date).
  /// - Throws: ``PropertyListError`` (a malformed file is left untouched), or what a step throws
  ///   (nothing is written then).
  @discardableResult
  public func migrate(_ migrations: SuiteMigrations) throws -> SuiteMigrationPlan {
    try flush()
    let plan = try migrations.apply(to: PropertyListFile(url: fileURL))
    if !plan.steps.isEmpty { synchronize() }
    return plan
  }

  /// What ``migrate(_:)`` would do to the suite as it is on disk now, without writing anything.
  /// - Throws: ``PropertyListError`` when the file cannot be read, or what a step throws.
  public func migrationPlan(_ migrations: SuiteMigrations) throws -> SuiteMigrationPlan {
    try migrations.plan(for: PropertyListFile(url: fileURL).read()?.values ?? [:])
  }
}
