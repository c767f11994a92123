import Foundation
import ObservableDefaults

/// Cloud sync between devices: device A sets a key → device B's store observer fires (what
/// updates an `@ObservableCloud` property), through the embedded container, through etcd with
/// A and B on two different members of a 3-member loopback cluster (`scripts/etcd-cluster`),
/// and through NATS with A and B on two servers of a 3-server JetStream cluster
/// (`scripts/nats-cluster`); and, for each engine, the time for 8 devices writing 100 keys each
/// to all hold the 800 keys.
///
/// Both devices live in this process (each backend object is one device with its own copy and,
/// for etcd, its own connections and watch).
struct CloudSyncMeasure {
  let workspace: Workspace
  let changes: Int
  let runs: Int

  func run(into table: ResultTable) {
    let root = workspace.folder.appendingPathComponent("cloud-containers")
    let embedded = latencies(
      EmbeddedCloudBackend(root: root, container: "bench"),
      EmbeddedCloudBackend(root: root, container: "bench"))
    for engine in CloudCluster.Engine.allCases {
      let cluster = CloudCluster(engine, in: workspace)
      defer { cluster.stop() }
      measure(engine.name, via: engine.servers, embedded: embedded, into: table) { first, group in
        try cluster.device(first: first, group: group)
      }
    }
  }

  /// The latency rows and the convergence row of one engine, its devices made by `device`
  /// (the first server or member to reach, and the root the devices of one measure share).
  private func measure(
    _ engine: String, via servers: String, embedded: Samples, into table: ResultTable,
    device make: @escaping (Int, String) throws -> any CloudBackend
  ) {
    func device(first: Int, root: String) -> any CloudBackend {
      do { return try make(first, root) } catch {
        abort("cannot create a \(engine) device: \(error)")
      }
    }
    let changed = latencies(device(first: 0, root: "latency"), device(first: 1, root: "latency"))
    table.add(
      ResultRow(
        measure:
          "Cloud change, device A sets → device B's observer, \(engine) via 2 \(servers): p50",
        samples: changed, unit: .milliseconds,
        baseline: (name: "embedded container", samples: embedded)))
    table.add(
      ResultRow(
        measure:
          "Cloud change, \(engine): p99 (of \(changes); baseline: embedded p99 \(Unit.milliseconds.format(embedded.percentile(99))))",
        samples: changed, unit: .milliseconds, value: changed.percentile(99)))
    let convergence = Samples(
      (0..<runs).map { run in
        converge(
          devices: (0..<8).map { device(first: $0 % 3, root: "converge-\(run)") }, keys: 100)
      })
    table.add(
      ResultRow(
        measure: "Cloud convergence, 8 \(engine) devices × 100 keys each → all hold 800",
        samples: convergence, unit: .seconds))
  }

  /// `changes` + 5 (warm-up) writes on `a`, each timed until `b`'s observer reports the key.
  private func latencies(_ a: any CloudBackend, _ b: any CloudBackend) -> Samples {
    let writer = NSUbiquitousKeyValueStore(backend: a)
    let reader = NSUbiquitousKeyValueStore(backend: b)
    let fired = FiredStamp()
    let observation = reader.observe { change in if change.keys.contains("name") { fired.record() }
    }
    defer { observation.cancel() }
    var latencies: [Double] = []
    for index in 0..<(changes + 5) {
      let start = monotonicNanoseconds()
      writer.set("value-\(index)", forKey: "name")
      guard let seen = fired.wait(seconds: 5) else {
        abort("cloud change \(index) was not observed within 5 s")
      }
      if index >= 5 { latencies.append(Double(seen &- start) / 1e9) }
    }
    return Samples(latencies)
  }

  /// Seconds from the first write until every device holds every device's `keys` keys.
  private func converge(devices: [any CloudBackend], keys: Int) -> Double {
    let stores = devices.map { NSUbiquitousKeyValueStore(backend: $0) }
    let total = stores.count * keys
    let start = monotonicNanoseconds()
    DispatchQueue.concurrentPerform(iterations: stores.count) { index in
      for key in 0..<keys { stores[index].set(key, forKey: "device\(index)-key\(key)") }
    }
    let deadline = Date().addingTimeInterval(60)
    while !stores.allSatisfy({ $0.dictionaryRepresentation.count == total }) {
      guard Date() < deadline else { abort("8 devices did not converge within 60 s") }
      usleep(1000)
    }
    return seconds(since: start)
  }
}
