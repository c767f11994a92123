import ObservableDefaultsCore

/// A resume point in one account's prefix: the cluster's identity and the highest revision seen
/// under the prefix (never etcd's global revision, which other prefixes move). Encoded as
/// `etcd:<cluster id>:<revision>` in `CloudCursor/rawValue`.
struct EtcdCursor: CloudEngineCursor {
  static let engine = "etcd"
  /// The cluster's identity (its id from reply headers); a cursor of another cluster means
  /// "deliver everything again".
  let identity: String
  /// The highest `mod_revision` delivered under the prefix (or known to be passed by it).
  let revision: Int64

  /// The cursor of a device that never reached the cluster: resuming from it delivers everything.
  static let none = CloudCursor(rawValue: "etcd:none:0")
}
