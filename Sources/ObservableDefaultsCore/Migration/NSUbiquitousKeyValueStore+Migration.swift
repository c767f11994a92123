import Foundation

extension NSUbiquitousKeyValueStore {
  /// Brings this device's copy of the store to `migrations`' schema version (an addition to
  /// Apple's API): runs the steps above the version recorded under
  /// ``SuiteMigrations/versionKey`` on the copy's values, and writes every changed key and the
  /// new version in one write (one save to the container, timestamps of one moment).
  ///
  /// Other devices receive the changed keys like any other change; their per-key timestamps
  /// decide, so a device that migrates the same old values at the same time converges on the
  /// same values, and merging never writes back (no ping-pong). A device that already holds the
  /// new version runs nothing.
  ///
  /// - Returns: What was done (no steps when the store was up to date).
  /// - Throws: What a step throws, or the store's write errors (``CloudStoreError``); nothing
  ///   changes then.
  @discardableResult
  public func migrate(_ migrations: SuiteMigrations) throws -> SuiteMigrationPlan {
    // By exact key: keys that differ only in Unicode normalization are each migrated.
    let plan = try migrations.plan(for: device.allValues())
    guard !plan.steps.isEmpty else { return plan }
    var writes = plan.changedKeys.reduce(into: [PropertyListKey: Any?]()) {
      $0[$1] = .some(plan.values[$1])
    }
    writes[SuiteMigrations.versionKey] = migrations.version
    try DefaultsChange.Writer.during(.migration) { try device.write(writes, excluding: nil) }
    return plan
  }
}
