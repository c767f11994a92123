import Foundation
import Synchronization

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

  /// `count` distinct TCP ports free on 127.0.0.1 now, below the kernel's range of ephemeral
  /// ports (`net.ipv4.ip_local_port_range`), and never handed out before in this process.
  ///
  /// Ports the kernel chose (`bind` to port 0) came from the ephemeral range, which every
  /// outgoing connection takes its local port from: a server started a while after its port was
  /// chosen (one that joins a cluster late) found it taken by a client's connection in a busy
  /// test run.
  public static func freePorts(_ count: Int) throws -> [Int] {
    try handedOut.withLock { handedOut in
      var ports: [Int] = []
      var candidate = Int.random(in: portRange)
      var tried = 0
      while ports.count < count, tried < portRange.count {
        tried += 1
        candidate = candidate == portRange.upperBound ? portRange.lowerBound : candidate + 1
        if !handedOut.contains(candidate), isFree(candidate) { ports.append(candidate) }
      }
      guard ports.count == count else {
        throw StartFailure(description: "no \(count) free ports on 127.0.0.1 in \(portRange)")
      }
      handedOut.formUnion(ports)
      return ports
    }
  }

  /// The ports ``freePorts(_:)`` hands out: from 10000 to the first ephemeral port.
  private static let portRange: ClosedRange<Int> = {
    let firstEphemeral =
      (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
      .split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    return 10_000...max(10_100, (firstEphemeral ?? 32_768) - 1)
  }()

  private static let handedOut = Mutex<Set<Int>>([])

  /// Whether a TCP socket can be bound to `port` on 127.0.0.1 now.
  private static func isFree(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
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
