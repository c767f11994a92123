import Foundation
import TestSupport

/// A stand-in NATS server (Python, on a free 127.0.0.1 port) for the nonce an NKey signs: it
/// gives its first client a nonce whose ed25519 signature by ``key`` starts with a zero byte
/// (libnats before 3.8 then sends no signature, nats-io/nats.c#705) and later clients nonces
/// whose signatures do not. It refuses a `CONNECT` without a valid signature with
/// `Authorization Violation`, answers the others' pings, and writes one line per connection to
/// its log: `signed`, `unsigned` or `bad signature` (see ``connections()``). Stopped by PID
/// however the test ends (see ``LoopbackServer``).
final class NATSNonceServer: LoopbackCluster, @unchecked Sendable {
  struct NotReady: Error, CustomStringConvertible {
    let description: String
  }

  let key: NKeyPair
  let server: LoopbackServer
  /// `nats://127.0.0.1:<port>`.
  let url: String

  /// Starts the server for `key`, its log in `folder`, and waits until it listens.
  init(key: NKeyPair, folder: URL) throws {
    let script = """
      import base64, json, os, socket, sys, threading
      from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
      port, seed = int(sys.argv[1]), open(sys.argv[2]).read().strip()
      key = Ed25519PrivateKey.from_private_bytes(base64.b32decode(seed + "=" * (-len(seed) % 8))[2:34])
      def nonce(zero_first):
          while True:
              candidate = base64.urlsafe_b64encode(os.urandom(11)).decode().rstrip("=")
              if (key.sign(candidate.encode())[0] == 0) == zero_first:
                  return candidate
      def pong(stream):
          for line in stream:
              if line.startswith(b"PING"):
                  stream.write(b"PONG\\r\\n")
      listener = socket.create_server(("127.0.0.1", port))
      print("listening", flush=True)
      first = True
      while True:
          connection, _ = listener.accept()
          stream = connection.makefile("rwb", buffering=0)
          given, first = nonce(first), False
          info = {"server_id": "stand-in", "version": "2.9.10", "proto": 1, "headers": True,
                  "max_payload": 1048576, "auth_required": True, "nonce": given}
          stream.write(b"INFO " + json.dumps(info).encode() + b"\\r\\n")
          signature = json.loads(stream.readline()[len(b"CONNECT "):]).get("sig")
          try:
              key.public_key().verify(base64.urlsafe_b64decode(signature + "=="), given.encode())
              print("signed", flush=True)
              threading.Thread(target=pong, args=(stream,), daemon=True).start()
          except Exception:
              print("unsigned" if signature is None else "bad signature", flush=True)
              stream.write(b"-ERR 'Authorization Violation'\\r\\n")
              connection.close()
      """
    let port = try LoopbackServer.freePorts(1)[0]
    self.key = key
    url = "nats://127.0.0.1:\(port)"
    server = LoopbackServer(
      name: "nonce-server",
      arguments: ["/usr/bin/python3", "-c", script, "\(port)", key.seedFile.path],
      log: folder.appendingPathComponent("nonce-server.log"))
    LoopbackClusters.register(self)
    try server.start()
    let log = { (try? String(contentsOf: self.server.log, encoding: .utf8)) ?? "" }
    guard pollBlocking(until: { log().hasPrefix("listening\n") }) else {
      remove()
      throw NotReady(description: "the stand-in NATS server did not listen: \(log())")
    }
  }

  deinit {
    remove()
  }

  func remove() {
    server.kill9()
  }

  /// The log's line for each connection so far, in order.
  func connections() throws -> [String] {
    try String(contentsOf: server.log, encoding: .utf8).split(separator: "\n").dropFirst()
      .map(String.init)
  }
}
