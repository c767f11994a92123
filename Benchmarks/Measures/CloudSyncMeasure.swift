import Foundation
import ObservableDefaults

/// Cloud sync between devices: device A sets a key → device B's store observer fires (what
/// updates an `@ObservableCloud` property), through the embedded container and through etcd with
/// A and B on two different members of a 3-member loopback cluster (`scripts/etcd-cluster`); and
/// the time for 8 etcd devices writing 100 keys each to all hold the 800 keys.
///
/// Both devices live in this process (each backend object is one device with its own copy and,
/// for etcd, its own connections and watch).
struct CloudSyncMeasure {
  let workspace: Workspace
  let changes: Int
  let runs: Int

  /// `scripts/etcd-cluster` of this package.
  static let clusterScript = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/etcd-cluster")

  func run(into table: ResultTable) {
    let root = workspace.folder.appendingPathComponent("cloud-containers")
    let embedded = latencies(
      EmbeddedCloudBackend(root: root, container: "bench"),
      EmbeddedCloudBackend(root: root, container: "bench"))

    let (cluster, endpoints) = startCluster()
    defer { stop(cluster) }
    func device(first: Int, root: String) -> EtcdCloudBackend {
      let ordered = Array(endpoints[first...] + endpoints[..<first])
      do {
        return try EtcdCloudBackend(
          configuration: EtcdConfiguration(endpoints: ordered, root: root, container: "bench"))
      } catch { abort("cannot create an etcd device: \(error)") }
    }
    let etcd = latencies(device(first: 0, root: "latency"), device(first: 1, root: "latency"))
    let baseline = (name: "embedded container", samples: embedded)
    table.add(
      ResultRow(
        measure: "Cloud change, device A sets → device B's observer, etcd via 2 members: p50",
        samples: etcd,
        unit: .milliseconds, baseline: baseline))
    table.add(
      ResultRow(
        measure:
          "Cloud change, etcd: p99 (of \(changes); baseline: embedded p99 \(Unit.milliseconds.format(embedded.percentile(99))))",
        samples: etcd, unit: .milliseconds, value: etcd.percentile(99)))

    let convergence = Samples(
      (0..<runs).map { run in
        converge(
          devices: (0..<8).map { device(first: $0 % endpoints.count, root: "converge-\(run)") },
          keys: 100)
      })
    table.add(
      ResultRow(
        measure: "Cloud convergence, 8 etcd devices × 100 keys each → all hold 800",
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
  private func converge(devices: [EtcdCloudBackend], keys: Int) -> Double {
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

  /// Starts a 3-member cluster in the workspace; returns the script's process and the endpoints.
  private func startCluster() -> (Process, [String]) {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    process.executableURL = Self.clusterScript
    process.arguments = ["3", workspace.folder.appendingPathComponent("etcd").path]
    process.standardInput = input
    process.standardOutput = output
    do { try process.run() } catch {
      abort(
        "cannot start \(Self.clusterScript.path): \(error) (apt-get install etcd-server etcd-client)"
      )
    }
    var line = Data()
    while true {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte == Data("\n".utf8) { break }
      line.append(byte)
    }
    let words = String(decoding: line, as: UTF8.self).split(separator: " ")
    guard words.count == 2, words[0] == "endpoints" else { abort("the etcd cluster did not start") }
    return (process, words[1].split(separator: ",").map(String.init))
  }

  /// Ends the script's input: it kills its members by PID and exits.
  private func stop(_ cluster: Process) {
    try? (cluster.standardInput as? Pipe)?.fileHandleForWriting.close()
    cluster.waitUntilExit()
  }
}
