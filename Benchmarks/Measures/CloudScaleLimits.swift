import Foundation

/// What bounds the devices one process holds on this machine, and the room the scale measure
/// leaves: every thread takes a process ID, so `kernel.pid_max` bounds the threads of every
/// program of the machine together, and `ulimit -n` the descriptors of this process (and of
/// each server, which inherits it).
enum CloudScaleLimits {
  /// The share of the machine's process IDs its threads may reach before no more devices are
  /// added: the rest is left to the other programs of a shared machine, whose `fork` would
  /// fail without it.
  static let threadShare = 0.5
  /// The share of `ulimit -n` this process's descriptors may reach before no more devices are
  /// added (past it, the next device's connection would fail).
  static let descriptorShare = 0.95

  /// Why `added` more devices, at `perDevice` of this process's threads and descriptors each,
  /// are not added, or nil when they fit.
  static func refusal(adding added: Int, perDevice: ProcessFigures) -> String? {
    let now = ProcessFigures()
    let threads = machineThreads
    let threadCeiling = Int(Double(pidMax) * threadShare)
    if Double(threads) + Double(added) * perDevice.threads > Double(threadCeiling) {
      return "\(added) more would take the machine's threads (\(threads) now, "
        + "\(format(perDevice.threads)) per device) past \(threadCeiling), half its process "
        + "IDs (`kernel.pid_max` \(pidMax)); the other half is left to the other programs"
    }
    let descriptorCeiling = Int(Double(limit(RLIMIT_NOFILE)) * descriptorShare)
    if now.descriptors + Double(added) * perDevice.descriptors > Double(descriptorCeiling) {
      return "\(added) more would take this process's descriptors (\(Int(now.descriptors)) "
        + "now, \(format(perDevice.descriptors)) per device) past \(descriptorCeiling), 95 % "
        + "of `ulimit -n` \(limit(RLIMIT_NOFILE))"
    }
    return nil
  }

  /// The limits, in one sentence for the report.
  static var summary: String {
    let processes = limit(__RLIMIT_NPROC)
    return "Limits: \(limit(RLIMIT_NOFILE)) descriptors per process (`ulimit -n`, the servers' "
      + "too), \(processes == rlim_t.max ? "unlimited" : "\(processes)") processes and threads "
      + "per user (`ulimit -u`), \(pidMax) process IDs on the machine (`kernel.pid_max`, "
      + "one per thread; devices are added while the machine's threads stay under "
      + "\(Int(threadShare * 100)) % of them)."
  }

  /// Threads (scheduling entities) on the machine now: the number after the `/` in
  /// `/proc/loadavg`.
  private static var machineThreads: Int {
    let fields = procFile("/proc/loadavg").split(separator: " ")
    return fields.count > 3 ? Int(fields[3].split(separator: "/").last ?? "") ?? 0 : 0
  }

  /// The machine's ceiling on process IDs, hence on threads.
  private static var pidMax: Int {
    Int(procFile("/proc/sys/kernel/pid_max").trimmingCharacters(in: .whitespacesAndNewlines))
      ?? 32768
  }

  private static func procFile(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  private static func limit(_ resource: __rlimit_resource) -> rlim_t {
    var value = rlimit()
    getrlimit(__rlimit_resource_t(resource.rawValue), &value)
    return value.rlim_cur
  }

  private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
