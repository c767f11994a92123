import Foundation
import TestSupport

/// A network namespace joined to this machine's by a pair of virtual Ethernet links
/// (`ip netns`, `ip link … type veth`; root only): servers run in it on ``serverAddress``, the
/// devices of the tests stay outside and reach it through the link, and ``partition(_:)``
/// takes the link down — a partition between the devices and their servers, in which packets
/// are lost rather than refused. Removed (with its links) by ``remove()``.
final class NATSNetworkNamespace: @unchecked Sendable {
  /// `ip` failed.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Whether this process may make network namespaces (it runs as root, and `ip` is there).
  static var isAvailable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
  }

  let name: String
  /// The link's end inside the namespace, and the servers' address on it.
  private let inside: String
  let serverAddress: String

  /// Makes the namespace and its link: 10.213.<n>.1 outside, 10.213.<n>.2 inside.
  init() throws {
    let tag = UUID().uuidString.prefix(6).lowercased()
    let subnet = Int.random(in: 1...250)
    (name, inside, serverAddress) = ("od-nats-\(tag)", "odn\(tag)", "10.213.\(subnet).2")
    let outside = "odh\(tag)"
    try Self.ip(["netns", "add", name])
    do {
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
    } catch {
      remove()
      throw error
    }
  }

  /// Takes the link down inside the namespace (`true`), or up again.
  func partition(_ cut: Bool) throws {
    try Self.ip(["-n", name, "link", "set", inside, cut ? "down" : "up"])
  }

  /// Deletes the namespace and its links (its processes must be gone).
  func remove() {
    _ = try? Self.ip(["netns", "delete", name])
  }

  private static func ip(_ arguments: [String]) throws {
    let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/sbin/ip"), arguments)
    guard result.status == 0 else {
      throw Failure(
        description: "ip \(arguments.joined(separator: " ")): \(result.error)\(result.output)")
    }
  }
}
