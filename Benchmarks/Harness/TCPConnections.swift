import Foundation

/// The established TCP connections whose local port is `port` (a server's listening port, so
/// one per client connected to it), counted in `/proc/net/tcp` and `/proc/net/tcp6`.
func establishedConnections(toPort port: Int) -> Int {
  let localPort = String(format: ":%04X", port)
  return ["/proc/net/tcp", "/proc/net/tcp6"].reduce(0) { count, table in
    // Read to the end: `String(contentsOfFile:)` stops after the first page of a /proc file.
    let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() ?? Data()
    let text = String(decoding: data, as: UTF8.self)
    // Each line: `sl local_address rem_address st …`, addresses `HEXADDRESS:HEXPORT`, and st 01
    // for ESTABLISHED.
    return count
      + text.split(separator: "\n").dropFirst().count { line in
        let fields = line.split(separator: " ")
        return fields.count > 3 && fields[1].hasSuffix(localPort) && fields[3] == "01"
      }
  }
}
