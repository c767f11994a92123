import Foundation

/// A server program the cloud tests run on 127.0.0.1 (an etcd member, a NATS server), started
/// and stopped by PID.
///
/// It runs under a small shell that reads its standard input from this process: when this
/// process ends in any way (even killed), the pipe closes and the shell kills the server by PID.
/// ``kill9()``, and the clusters' `deinit` and exit hook (see ``LoopbackClusters``), also
/// kill it by PID.
open class LoopbackServer: @unchecked Sendable {
  public struct StartFailure: Error, CustomStringConvertible {
    public let description: String
  }

  public let name: String
  public let arguments: [String]
  /// Where the server's standard output and error go (appended across restarts).
  public let log: URL
  private let lock = NSLock()
  // Guarded by `lock`.
  private var processID: Int32 = 0
  private var wrapper: Process?
  private var lifeline: Pipe?
  private var logOffset: UInt64 = 0

  /// - Parameters:
  ///   - name: The server's name in its cluster.
  ///   - arguments: The program and its arguments.
  ///   - log: The log file.
  public init(name: String, arguments: [String], log: URL) {
    self.name = name
    self.arguments = arguments
    self.log = log
  }

  /// The server's PID (0 when stopped).
  public var pid: Int32 { lock.withLock { processID } }

  /// Whether the server's process runs: it exists and is not a zombie (its shell reaps it only
  /// when this process lets go of it, so a server that exited on its own stays a zombie).
  public var isRunning: Bool {
    let pid = pid
    guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return false }
    return !stat[end...].hasPrefix(") Z")
  }

  /// What the server wrote to its log since its last start.
  public var logSinceStart: String {
    let offset = lock.withLock { logOffset }
    guard let handle = try? FileHandle(forReadingFrom: log) else { return "" }
    defer { try? handle.close() }
    try? handle.seek(toOffset: offset)
    return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
  }

  /// Starts (or restarts) the server.
  public func start() throws {
    let offset = Self.size(of: log)
    let wrapper = Process()
    let lifeline = Pipe()
    let output = Pipe()
    wrapper.executableURL = URL(fileURLWithPath: "/bin/sh")
    wrapper.arguments =
      [
        "-c", "\"$@\" >>'\(log.path)' 2>&1 & echo $!; cat >/dev/null; kill -9 $! 2>/dev/null",
        "sh",
      ] + arguments
    wrapper.standardInput = lifeline
    wrapper.standardOutput = output
    try wrapper.run()
    var line = Data()
    while true {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte == Data("\n".utf8) { break }
      line.append(byte)
    }
    guard let pid = Int32(String(decoding: line, as: UTF8.self)) else {
      throw StartFailure(description: "\(name) (\(arguments[0])) did not start")
    }
    lock.withLock {
      (processID, self.wrapper, self.lifeline, logOffset) = (pid, wrapper, lifeline, offset)
    }
  }

  private static func size(of file: URL) -> UInt64 {
    guard let handle = try? FileHandle(forReadingFrom: file) else { return 0 }
    defer { try? handle.close() }
    return (try? handle.seekToEnd()) ?? 0
  }

  /// Kills the server with `SIGKILL` (by its PID) and waits until it is gone.
  public func kill9() {
    let (pid, lifeline, wrapper) = lock.withLock {
      defer { (processID, self.lifeline, self.wrapper) = (0, nil, nil) }
      return (processID, self.lifeline, self.wrapper)
    }
    guard pid > 0 else { return }
    kill(pid, SIGKILL)
    try? lifeline?.fileHandleForWriting.close()
    wrapper?.waitUntilExit()
  }

  /// Stops the server with `SIGSTOP` (its sockets stay open; it answers nothing), or lets it go
  /// on with `SIGCONT`.
  public func pause(_ paused: Bool = true) {
    let pid = lock.withLock { processID }
    if pid > 0 { kill(pid, paused ? SIGSTOP : SIGCONT) }
  }

  /// `count` distinct free TCP ports on 127.0.0.1.
  public static func freePorts(_ count: Int) throws -> [Int] {
    var sockets: [Int32] = []
    defer { for socket in sockets { close(socket) } }
    var ports: [Int] = []
    for _ in 0..<count {
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = 0
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
          bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
      }
      guard bound else { throw StartFailure(description: "no free port on 127.0.0.1") }
      sockets.append(descriptor)
      ports.append(Int(UInt16(bigEndian: address.sin_port)))
    }
    return ports
  }

  /// `program` on `PATH` or in `/usr/bin`, `/usr/sbin`, `/usr/local/bin`.
  public static func executable(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    return
      (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"])
      .map { $0 + "/" + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// A cluster of ``LoopbackServer``s that the process's exit hook (``ProcessExit``) stops.
public protocol LoopbackCluster: AnyObject {
  /// Stops every server by PID and removes the data folder.
  func remove()
}

/// Every cluster started by this process, stopped when it exits (see ``ProcessExit``).
public enum LoopbackClusters {
  private final class Weak {
    weak var cluster: (any LoopbackCluster)?
    init(_ cluster: any LoopbackCluster) { self.cluster = cluster }
  }

  nonisolated(unsafe) private static var clusters: [Weak] = []
  private static let lock = NSLock()
  nonisolated(unsafe) private static var hookInstalled = false

  public static func register(_ cluster: any LoopbackCluster) {
    let install = lock.withLock {
      clusters.append(Weak(cluster))
      defer { hookInstalled = true }
      return !hookInstalled
    }
    if install { ProcessExit.run { LoopbackClusters.stopAll() } }
  }

  public static func stopAll() {
    let live = lock.withLock { clusters.compactMap(\.cluster) }
    for cluster in live { cluster.remove() }
  }
}
