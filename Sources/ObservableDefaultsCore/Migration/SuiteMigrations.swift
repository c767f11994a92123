import Foundation

/// One step of a suite's schema: what moves the suite's raw values to schema version ``version``.
public struct SuiteMigrationStep: Sendable {
  /// The schema version the suite has after this step.
  public let version: Int
  /// What the step does, for people (`settings-editor migrate --dry-run`, the editor).
  public let summary: String
  let body: @Sendable (inout MigratingSuite) throws -> Void

  /// A step to `version` (each step's version is greater than the one before it).
  public init(
    to version: Int, _ summary: String,
    _ body: @escaping @Sendable (inout MigratingSuite) throws -> Void
  ) {
    self.version = version
    self.summary = summary
    self.body = body
  }
}

/// A suite's schema versions: ordered steps, each run once per suite.
///
/// ``apply(to:)`` runs, under the suite file's lock, every step whose version is above the one
/// recorded in the file (``versionKey``; none means 0), on one copy of the values, records the
/// new version and replaces the file atomically in the same write. So:
/// - two processes starting at once run each step exactly once (the second finds the version
///   the first recorded);
/// - a migration that is killed or throws leaves the file as it was (fully old); otherwise it
///   is fully new;
/// - a file whose recorded version is above ``version`` (written by a newer program) is left alone.
///
/// Programs that still run the older version keep working: they never rewrite the whole file,
/// only the keys they set (each write locks, re-reads and merges key by key), so they cannot
/// undo the migration — a key they set again (an old key) comes back alone, and a newer program
/// reading `previousKeys` reads its own key first.
public struct SuiteMigrations: Sendable {
  /// The reserved key that records a suite's schema version (an `Int`).
  public static let versionKey = "ObservableDefaults.schemaVersion"

  /// The steps, in increasing version order.
  public let steps: [SuiteMigrationStep]

  /// Steps in increasing version order (a precondition).
  public init(_ steps: [SuiteMigrationStep]) {
    precondition(
      zip(steps, steps.dropFirst()).allSatisfy { $0.version < $1.version }
        && (steps.first?.version ?? 1) > 0,
      "migration steps need increasing versions above 0")
    self.steps = steps
  }

  /// The schema version after every step (0 without steps).
  public var version: Int { steps.last?.version ?? 0 }

  /// What ``apply(to:)`` would do to `values` (a suite's or a cloud store's values now, by
  /// exact key: keys that differ only in Unicode normalization are each migrated), without
  /// writing.
  /// - Throws: What a step throws.
  public func plan(for values: [PropertyListKey: Any]) throws -> SuiteMigrationPlan {
    var suite = MigratingSuite(values: values)
    let recorded = values[Self.versionKey] as? Int ?? 0
    var ran: [SuiteMigrationStep] = []
    for step in steps where step.version > recorded {
      try step.body(&suite)
      ran.append(step)
    }
    return SuiteMigrationPlan(
      recordedVersion: recorded, steps: ran.map { ($0.version, $0.summary) },
      changedKeys: suite.changedKeys.sorted(),
      values: suite.values)
  }

  /// Runs the pending steps on the file under its lock and writes the result and the new version
  /// in one atomic replacement (see the type's rules).
  /// - Returns: What was done (no steps when the file was up to date).
  /// - Throws: ``PropertyListError`` (a malformed file is left untouched), or what a step throws
  ///   (then nothing is written).
  @discardableResult
  public func apply(to file: PropertyListFile) throws -> SuiteMigrationPlan {
    var plan = SuiteMigrationPlan(recordedVersion: version, steps: [], changedKeys: [], values: [:])
    var writes: [ChangeHistory.Write] = []
    // The file's mark says `migration`: every process that reads it tells its changes so.
    _ = try DefaultsChange.Writer.during(.migration) {
      var known: PropertyListSnapshot?
      return try file.update(known: &known) { document in
        plan = try self.plan(for: document.values)
        guard !plan.steps.isEmpty else { return false }
        writes = plan.changedKeys.map { key in
          ChangeHistory.Write(key: key, old: document.values[key], new: plan.values[key])
        }
        document.values = plan.values
        document.values[Self.versionKey] = version
        return true
      }
    }
    if let (history, suite) = ChangeHistory.ofSuiteFile(at: file.url) {
      history.record(writes, suite: suite, reason: "migration")
    }
    return plan
  }
}

/// What a migration does to a suite: the steps that run and the keys they change.
public struct SuiteMigrationPlan: @unchecked Sendable {
  // Unchecked Sendable: the values are immutable property-list values.

  /// The schema version recorded in the suite before (0 when none).
  public let recordedVersion: Int
  /// The pending steps: version and summary, in order.
  public let steps: [(version: Int, summary: String)]
  /// The keys the steps set, rename or remove, in Unicode scalar order (keys that differ only
  /// in Unicode normalization are each listed).
  public let changedKeys: [PropertyListKey]
  /// The values after the steps (without the version key's new value), by exact key.
  public let values: [PropertyListKey: Any]
}
