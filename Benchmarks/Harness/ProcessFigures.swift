import Foundation

/// What `/proc` tells about one process of this machine at one moment: its resident memory,
/// threads, open file descriptors and CPU time so far.
struct ProcessFigures {
  /// Resident memory (`VmRSS`), in bytes.
  let residentBytes: Double
  /// Threads (`Threads`).
  let threads: Double
  /// Open file descriptors (the entries of `/proc/<pid>/fd`).
  let descriptors: Double
  /// User and system CPU time since the process started (`/proc/<pid>/stat`), in seconds.
  let cpuSeconds: Double

  /// Figures given one by one.
  init(residentBytes: Double, threads: Double, descriptors: Double, cpuSeconds: Double) {
    self.residentBytes = residentBytes
    self.threads = threads
    self.descriptors = descriptors
    self.cpuSeconds = cpuSeconds
  }

  /// The figures of process `pid`, or of this process for nil.
  init(pid: Int32? = nil) {
    let folder = "/proc/" + (pid.map(String.init) ?? "self")
    residentBytes = Double(processStatus("VmRSS", of: folder) * 1024)
    threads = Double(processStatus("Threads", of: folder))
    let entries = try? FileManager.default.contentsOfDirectory(atPath: folder + "/fd")
    descriptors = Double(entries?.count ?? 0)
    // After the command name in parentheses: state is field 3, utime and stime fields 14 and 15.
    let stat = (try? String(contentsOfFile: folder + "/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    let ticks = fields.count > 12 ? (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0) : 0
    cpuSeconds = ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}

extension ProcessFigures {
  /// The figures of two processes added up (a cluster's servers together).
  static func + (lhs: Self, rhs: Self) -> Self { lhs.combined(with: rhs, by: +) }
  /// What the figures grew by from `rhs` (earlier) to `lhs`.
  static func - (lhs: Self, rhs: Self) -> Self { lhs.combined(with: rhs, by: -) }
  /// Each figure divided by `count` (a growth per device).
  static func / (lhs: Self, count: Double) -> Self {
    lhs.combined(with: ProcessFigures(residentBytes: 0, threads: 0, descriptors: 0, cpuSeconds: 0))
    { value, _ in value / count }
  }

  private func combined(with other: Self, by operation: (Double, Double) -> Double) -> Self {
    ProcessFigures(
      residentBytes: operation(residentBytes, other.residentBytes),
      threads: operation(threads, other.threads),
      descriptors: operation(descriptors, other.descriptors),
      cpuSeconds: operation(cpuSeconds, other.cpuSeconds))
  }
}

/// A size in `/proc/self/status`, in bytes: `VmRSS` (resident now) or `VmHWM` (peak resident
/// since this program started).
func memoryStatus(_ field: String) -> Int {
  processStatus(field, of: "/proc/self") * 1024
}

/// The number of `field` in `<folder>/status` (kB for sizes), or 0 without one.
private func processStatus(_ field: String, of folder: String) -> Int {
  let status = (try? String(contentsOfFile: folder + "/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
  let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
  return Int(words.dropFirst().first ?? "") ?? 0
}
