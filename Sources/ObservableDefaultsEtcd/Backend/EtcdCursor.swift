import ObservableDefaultsCore

/// A resume point in one account's prefix: the cluster's identity and the highest revision seen
/// under the prefix (never etcd's global revision, which other prefixes move). Encoded as
/// `etcd:<cluster id>:<revision>` in `CloudCursor/rawValue`.
struct EtcdCursor: Sendable, Equatable {
  /// The cluster's identity (from reply headers); a cursor of another cluster means "deliver
  /// everything again".
  let clusterID: String
  /// The highest `mod_revision` delivered under the prefix (or known to be passed by it).
  let revision: Int64

  init(clusterID: String, revision: Int64) {
    self.clusterID = clusterID
    self.revision = revision
  }

  /// The cursor in `cursor`, or nil when it is not an etcd cursor.
  init?(_ cursor: CloudCursor?) {
    guard let parts = cursor?.rawValue.split(separator: ":", omittingEmptySubsequences: false),
      parts.count == 3, parts[0] == "etcd", let revision = Int64(parts[2])
    else { return nil }
    self.init(clusterID: String(parts[1]), revision: revision)
  }

  var cloudCursor: CloudCursor {
    CloudCursor(rawValue: "etcd:\(clusterID):\(revision)")
  }

  /// The cursor of a device that never reached the cluster: resuming from it delivers everything.
  static let none = CloudCursor(rawValue: "etcd:none:0")
}
