import Foundation
import ObservableDefaults

/// The devices of one store on a ``CloudCluster``: one writer and a growing number of
/// observers, each a backend object of its own (its own connection and watch) with a store on
/// it whose change observer reports to a ``FanOutLatch``. Device `k` lists server `k % 3` first:
/// an etcd device uses that one, and libnats shuffles a NATS device's list, so either way the
/// devices spread over the servers.
final class CloudFleet {
  /// The key the writer changes.
  static let key = "fan-out"

  private let cluster: CloudCluster
  private let group: String
  private let latch = FanOutLatch()
  private let writer: NSUbiquitousKeyValueStore
  private var observers: [(store: NSUbiquitousKeyValueStore, observation: ObservationToken)] =
    []
  private var changes = 0

  /// The writer's device on `cluster`, in the store named `group`.
  init(on cluster: CloudCluster, group: String) throws {
    self.cluster = cluster
    self.group = group
    writer = NSUbiquitousKeyValueStore(backend: try cluster.device(first: 0, group: group))
  }

  /// Devices held: the writer and the observers.
  var count: Int { observers.count + 1 }

  /// Adds observer devices until ``count`` is `total`.
  ///
  /// - Throws: Whatever refused the next device (its backend's error).
  func grow(to total: Int) throws {
    while count < total {
      let backend = try cluster.device(first: count % cluster.urls.count, group: group)
      let store = NSUbiquitousKeyValueStore(backend: backend)
      let latch = latch
      let observation = store.observe { [weak store] change in
        if change.keys.contains(Self.key) { latch.saw(store?.string(forKey: Self.key)) }
      }
      observers.append((store, observation))
    }
  }

  /// The writer sets the key to a new value; returns the seconds until every observer saw it,
  /// or how many had not within `timeout` seconds.
  func fanOut(timeout: Double) -> Result<Double, FanOutTimeout> {
    changes += 1
    let value = "change-\(changes)"
    latch.expect(value, devices: observers.count)
    let start = monotonicNanoseconds()
    writer.set(value, forKey: Self.key)
    let (lastSeen, missing) = latch.wait(seconds: timeout)
    guard let lastSeen else { return .failure(FanOutTimeout(missing: missing)) }
    return .success(Double(lastSeen &- start) / 1e9)
  }

  /// Ends every observation and lets every device go (its connection and watch end with it).
  func release() {
    for observer in observers { observer.observation.cancel() }
    observers.removeAll()
  }
}

/// A change that some observers had not seen in time.
struct FanOutTimeout: Error {
  /// The observers that had not.
  let missing: Int
}
