/// A suite's "other keys": the keys of a suite that none of its published schemas lists, as
/// dconf-editor lists keys without a schema, so that a key written under a mistyped name can be
/// seen, fixed (`R` renames it) and removed. Listed in the objects pane right after the suite's
/// last schema while the suite holds such a key, once the suite is read.
@MainActor
struct OtherKeys {
  /// The keys, as a suite's rows that leave out those the schemas list.
  let rows: SuiteRows
  /// The source the group is listed after: the suite's last schema.
  let anchor: ObjectIdentifier
  /// The schemas of the suite.
  let schemas: [PublishedSchemaRows]

  /// Whether the suite was read (one of its schemas' stores opened): the group is listed or not
  /// from then on. Observable.
  var isRead: Bool { schemas.contains { $0.isOpen } }

  /// The "other keys" of every suite `schemaSources` describe, each after its last schema.
  /// Nothing is read: the suites are read when their rows are first needed.
  static func groups(of schemaSources: [PublishedSchemaRows]) -> [OtherKeys] {
    let bySuite = Dictionary(grouping: schemaSources.filter { $0.suiteName != nil }) {
      $0.suiteName ?? ""
    }
    return schemaSources.enumerated().compactMap { index, source in
      guard let suite = source.suiteName, let schemas = bySuite[suite],
        !schemaSources[(index + 1)...].contains(where: { $0.suiteName == suite })
      else { return nil }
      let rows = SuiteRows(
        suite: suite, folder: source.preferences, title: "\(source.title) · other keys",
        describedKeys: schemas.reduce(into: Set()) { $0.formUnion($1.storedKeys) })
      return OtherKeys(rows: rows, anchor: ObjectIdentifier(source), schemas: schemas)
    }
  }

  /// Follows every group of `groups` in `session`: once its suite is read (when one of its
  /// schemas is shown, searched or edited), listed while it holds a key, off the list while it
  /// holds none, as another program or the editor writes and removes them. Nothing is read for
  /// a group before: the first paint reads the suite it shows only. Callbacks from other
  /// threads reach the session through `post`.
  static func follow(_ groups: [OtherKeys], session: EditorSession, post: @escaping MainJobPoster) {
    for others in groups where !session.sources.contains(where: { $0 === others.rows }) {
      session.recordChanges(of: others.rows, post: post)
      others.rows.startWatching(post: post)
    }
    for others in groups { others.listOnceRead(session: session, post: post) }
  }

  /// Lists the group as ``listWhileNotEmpty(session:post:announcing:)`` does once its suite is
  /// read: now if it is, else when the first of its schemas opens its store.
  private func listOnceRead(session: EditorSession, post: @escaping MainJobPoster) {
    guard isRead else {
      _ = trackAfterChange(
        { isRead }, onChange: { post { self.listOnceRead(session: session, post: post) } })
      return
    }
    listWhileNotEmpty(session: session, post: post, announcing: false)
  }

  /// Lists the group when it holds a key and takes it off the list when it holds none, now and
  /// after each change of its rows; the status line names it when it is listed `announcing`
  /// (after a change, not when its suite is first read).
  private func listWhileNotEmpty(
    session: EditorSession, post: @escaping MainJobPoster, announcing: Bool
  ) {
    let isEmpty = trackAfterChange(
      { rows.rowCount == 0 },
      onChange: {
        post { self.listWhileNotEmpty(session: session, post: post, announcing: true) }
      })
    session.state.outsideDamage.formUnion(
      isEmpty
        ? session.unlist(rows, after: anchor)
        : session.list(rows, after: anchor, announcing: announcing))
  }
}
