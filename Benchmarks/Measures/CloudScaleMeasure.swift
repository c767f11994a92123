import Foundation

/// Cloud sync at scale: how many idle devices of one store a 3-server loopback cluster holds,
/// what each device costs the program holding it and the servers, and how long one change takes
/// to reach all of them.
///
/// For each engine, one cluster (``CloudCluster``) and one store on it (a NATS container, an etcd
/// root): a writer device, then observer devices added up to each count of `deviceCounts`
/// (``CloudFleet``: spread over the 3 servers, each a backend object with its own connection and
/// watch, all in this process). At each count a first change reaches every observer (so every
/// watch runs), the devices idle for ``idleWindow`` seconds (the figures: this process's and the
/// servers' memory, descriptors and threads from `/proc`, their connections, the CPU they used),
/// then `changes` changes are timed from the writer's set until the last observer's store
/// observer fired. The first count an engine cannot reach ends its rows, with the reason.
struct CloudScaleMeasure {
  let workspace: Workspace
  /// The device counts of the rows (the writer included), ascending.
  let deviceCounts: [Int]
  /// Changes timed at each count.
  let changes: Int
  /// The engines measured, in this order.
  let engines: [CloudCluster.Engine]

  /// Seconds the devices idle before their figures are taken, and again while the CPU they use
  /// is counted.
  static let idleWindow: TimeInterval = 10
  /// Seconds every observer may take to see the first change at a new count.
  static let firstChangeTimeout: Double = 120
  /// Seconds every observer may take to see a timed change.
  static let changeTimeout: Double = 30

  func run(into table: ResultTable) {
    let rows = CloudScaleTable()
    for engine in engines {
      let cluster = CloudCluster(engine, in: workspace)
      measure(on: cluster, into: rows)
      cluster.stop()
    }
    table.addSection(CloudScaleLimits.summary + "\n\n" + rows.markdown())
  }

  /// The rows of one engine; its devices are gone when this returns.
  private func measure(on cluster: CloudCluster, into rows: CloudScaleTable) {
    let engine = cluster.engine.name
    let fleet: CloudFleet
    do { fleet = try CloudFleet(on: cluster, group: "scale") } catch {
      return rows.stop(engine, "the writer's device was refused: \(error)")
    }
    defer { fleet.release() }
    let (alone, aloneEnd) = idle(cluster)
    rows.add(
      CloudScaleRow(
        engine: engine, devices: 1, connections: aloneEnd.connections, perDevice: nil,
        idleLoad: aloneEnd.cpuLoad(since: alone), fanOut: nil))
    for count in deviceCounts where count > 1 {
      if let reason = reach(count, with: fleet, progress: rows) {
        return rows.stop(engine, reason)
      }
      let (start, end) = idle(cluster)
      let observers = Double(count - 1)
      var fanOut: [Double] = []
      for change in 1...changes {
        switch fleet.fanOut(timeout: Self.changeTimeout) {
        case .success(let seconds): fanOut.append(seconds)
        case .failure(let timeout):
          return rows.stop(
            engine,
            "change \(change) of \(changes) at \(count) devices: \(timeout.missing) observers "
              + "had not seen it after \(Int(Self.changeTimeout)) s")
        }
      }
      rows.add(
        CloudScaleRow(
          engine: engine, devices: count, connections: end.connections,
          perDevice: (
            (start.process - alone.process) / observers,
            (start.servers - alone.servers) / observers
          ),
          idleLoad: end.cpuLoad(since: start), fanOut: Samples(fanOut)))
    }
  }

  /// Adds devices to `fleet` until it holds `count` and each has seen a first change; nil once
  /// there, else why not.
  private func reach(_ count: Int, with fleet: CloudFleet, progress: CloudScaleTable) -> String? {
    let start = monotonicNanoseconds()
    while fleet.count < count {
      let next = min(count, fleet.count + 100)
      let perDevice = ProcessFigures() / Double(fleet.count)
      if let refusal = CloudScaleLimits.refusal(adding: next - fleet.count, perDevice: perDevice) {
        return "\(fleet.count) devices held; \(refusal)"
      }
      do { try fleet.grow(to: next) } catch {
        return "device \(fleet.count + 1) was refused (\(fleet.count) held): \(error)"
      }
      progress.log(
        "\(fleet.count) devices held (\(String(format: "%.1f", seconds(since: start))) s)")
    }
    if case .failure(let timeout) = fleet.fanOut(timeout: Self.firstChangeTimeout) {
      return "at \(count) devices, \(timeout.missing) of \(count - 1) observers had not seen "
        + "the first change after \(Int(Self.firstChangeTimeout)) s"
    }
    return nil
  }

  /// Lets the devices idle for ``idleWindow`` seconds, then for as long again between the two
  /// snapshots returned.
  private func idle(_ cluster: CloudCluster) -> (start: CloudScaleSnapshot, end: CloudScaleSnapshot)
  {
    Thread.sleep(forTimeInterval: Self.idleWindow)
    let start = CloudScaleSnapshot(of: cluster)
    Thread.sleep(forTimeInterval: Self.idleWindow)
    return (start, CloudScaleSnapshot(of: cluster))
  }
}
