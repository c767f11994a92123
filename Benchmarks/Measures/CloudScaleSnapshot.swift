import Foundation

/// This process's and a cluster's servers' figures at one moment.
struct CloudScaleSnapshot {
  /// This process: the devices' side.
  let process: ProcessFigures
  /// The servers together.
  let servers: ProcessFigures
  /// The connections each server holds on its client port, in the order of the cluster's URLs.
  let connections: [Int]
  /// When it was taken (``monotonicNanoseconds()``).
  let taken: UInt64

  /// The figures of this process and of `cluster`'s servers now.
  init(of cluster: CloudCluster) {
    taken = monotonicNanoseconds()
    process = ProcessFigures()
    let each = cluster.serverPIDs.map { ProcessFigures(pid: $0) }
    servers = each.dropFirst().reduce(each[0], +)
    connections = cluster.clientPorts.map { establishedConnections(toPort: $0) }
  }

  /// The CPU time used since `earlier`, in cores busy on average (1 = one core all the time),
  /// by this process and by the servers together.
  func cpuLoad(since earlier: CloudScaleSnapshot) -> (process: Double, servers: Double) {
    let wall = Double(taken - earlier.taken) / 1e9
    return (
      (process.cpuSeconds - earlier.process.cpuSeconds) / wall,
      (servers.cpuSeconds - earlier.servers.cpuSeconds) / wall
    )
  }
}
