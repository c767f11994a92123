import Foundation

/// A TCP server on 127.0.0.1 that answers every request with the same raw bytes, then closes the
/// connection: replies no real server sends (malformed, truncated, trailer-ended), for the HTTP
/// client's tests. Given a `watchStream`, it answers a watch (`/v3/watch`) with it instead and
/// keeps that connection open until it stops, as a member whose watch waits for events.
final class FakeHTTPServer: @unchecked Sendable {
  let port: Int
  private let listener: Int32
  private let reply: Data
  private let watchStream: Data?
  private let lock = NSLock()
  private var served = 0
  private var stopped = false
  /// The watch connections held open.
  private var held: [Int32] = []

  /// `http://127.0.0.1:<port>`.
  var endpoint: String { "http://127.0.0.1:\(port)" }

  /// The number of requests answered so far.
  var requestCount: Int { lock.withLock { served } }

  /// Starts listening; every request gets `reply`, a watch `watchStream` when given.
  init(reply: String, watchStream: String? = nil) throws {
    self.reply = Data(reply.utf8)
    self.watchStream = watchStream.map { Data($0.utf8) }
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(listener, generic, length) == 0 && listen(listener, 16) == 0
          && getsockname(listener, generic, &length) == 0
      }
    }
    guard listening else {
      throw EtcdTestCluster.ClusterError(description: "the fake server cannot listen")
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in serve() }
    thread.start()
  }

  /// Stops accepting connections and closes the watches held open.
  func stop() {
    let watches = lock.withLock {
      stopped = true
      return held
    }
    for connection in watches {
      shutdown(connection, Int32(SHUT_RDWR))
      close(connection)
    }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private func serve() {
    while !lock.withLock({ stopped }) {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      let request = readRequest(connection)
      let isWatch = request.split(separator: "\r\n").first?.contains("/v3/watch") ?? false
      let answer = isWatch ? watchStream ?? reply : reply
      // Counted before the answer: the client may be done with it, and its caller reading the
      // count, before this thread runs again.
      lock.withLock { served += 1 }
      answer.withUnsafeBytes { _ = send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      let hold = lock.withLock {
        guard isWatch, watchStream != nil, !stopped else { return false }
        held.append(connection)
        return true
      }
      if hold { continue }
      shutdown(connection, Int32(SHUT_WR))
      close(connection)
    }
  }

  /// Reads the request's headers and its `Content-Length` body.
  ///
  /// - Returns: The headers, lowercased.
  @discardableResult
  private func readRequest(_ connection: Int32) -> String {
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      if let end = received.range(of: Data("\r\n\r\n".utf8)) {
        let headers = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
        let length =
          headers.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap {
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
          } ?? 0
        if received.count - end.upperBound >= length { return headers }
      }
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return "" }
      received.append(contentsOf: buffer[0..<count])
    }
  }
}

/// A chunked HTTP reply ending with a trailer, as etcd's gateway sends its errors.
func chunkedReply(
  status: String, body: String, trailer: String = "Grpc-Trailer-Content-Type: application/grpc"
) -> String {
  let size = String(body.utf8.count, radix: 16)
  return
    "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nTrailer: Grpc-Trailer-Content-Type\r\n"
    + "Transfer-Encoding: chunked\r\n\r\n\(size)\r\n\(body)\r\n0\r\n\(trailer)\r\n\r\n"
}
