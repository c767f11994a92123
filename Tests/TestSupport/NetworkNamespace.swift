import Foundation

/// A network namespace joined to this machine's by a pair of virtual Ethernet links
/// (`ip netns`, `ip link … type veth`; root only): servers (NATS servers, etcd members) run in
/// it on ``serverAddress`` (started through ``exec``), the devices of the tests stay outside and
/// reach it through the link, and ``partition(_:)`` takes the link down — a partition between
/// the devices and their servers, in which packets are lost rather than refused. Removed (with
/// its links) by ``remove()``; its processes must be gone by then.
public final class NetworkNamespace: @unchecked Sendable {
  /// `ip` failed.
  public struct Failure: Error, CustomStringConvertible {
    /// The command and what it printed.
    public let description: String
  }

  /// Whether this process may make network namespaces (it runs as root, and `ip` is there).
  public static var isAvailable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: ip.path)
  }

  /// The namespace's name: `od-net-<6 hexadecimal digits>`.
  public let name: String
  /// The link's end inside the namespace.
  private let inside: String
  /// The servers' address inside the namespace (IPv4, dotted).
  public let serverAddress: String

  /// The prefix of a program's arguments that runs it in the namespace (`ip netns exec`, which
  /// executes the program in its own process, so the process identifier is the program's).
  public var exec: [String] { [Self.ip.path, "netns", "exec", name] }

  /// Serializes the choice of subnets within this process.
  private static let subnets = NSLock()

  /// Makes the namespace and its link: 10.213.<n>.1 outside, 10.213.<n>.2 inside, `n` a
  /// subnet no interface of this machine uses (so that tests running at the same time, in this
  /// process or another, do not share a route).
  ///
  /// - Throws: ``Failure`` when `ip` fails or every subnet is in use; nothing is left behind.
  public init() throws {
    let tag = UUID().uuidString.prefix(6).lowercased()
    let (name, inside, outside) = ("od-net-\(tag)", "odn\(tag)", "odh\(tag)")
    (self.name, self.inside) = (name, inside)
    try Self.ip(["netns", "add", name])
    do {
      serverAddress = try Self.subnets.withLock {
        let used = try ChildProcess.run(Self.ip, ["-4", "-o", "addr", "show"]).output
        guard
          let subnet = (1...250).shuffled().first(where: { !used.contains("10.213.\($0).") })
        else { throw Failure(description: "every subnet 10.213.1-250.0/30 is in use") }
        let serverAddress = "10.213.\(subnet).2"
        for arguments in [
          ["link", "add", outside, "type", "veth", "peer", "name", inside, "netns", name],
          ["addr", "add", "10.213.\(subnet).1/30", "dev", outside],
          ["link", "set", outside, "up"],
          ["-n", name, "addr", "add", "\(serverAddress)/30", "dev", inside],
          ["-n", name, "link", "set", inside, "up"],
          ["-n", name, "link", "set", "lo", "up"],
        ] {
          try Self.ip(arguments)
        }
        return serverAddress
      }
    } catch {
      _ = try? Self.ip(["netns", "delete", name])
      throw error
    }
  }

  /// Takes the link down inside the namespace (`true`), or up again.
  ///
  /// - Throws: ``Failure`` when `ip` fails.
  public func partition(_ cut: Bool) throws {
    try Self.ip(["-n", name, "link", "set", inside, cut ? "down" : "up"])
  }

  /// Deletes the namespace and its links (its processes must be gone).
  public func remove() {
    _ = try? Self.ip(["netns", "delete", name])
  }

  private static let ip = URL(fileURLWithPath: "/usr/sbin/ip")

  private static func ip(_ arguments: [String]) throws {
    let result = try ChildProcess.run(ip, arguments)
    guard result.status == 0 else {
      throw Failure(
        description: "ip \(arguments.joined(separator: " ")): \(result.error)\(result.output)")
    }
  }
}
