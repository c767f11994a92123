import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// Replies no healthy etcd member sends — malformed, truncated, trailer-ended — from a fake
/// loopback server: each becomes an error, never a crash.
@Suite struct EtcdReplyTests {
  func client(_ server: FakeHTTPServer) -> EtcdClient {
    EtcdClient(
      endpoints: [server.endpoint], credentials: nil, tls: CloudTLSFiles(), requestTimeout: 0.3,
      connectTimeout: 1)
  }

  func post(_ reply: String) throws -> (Result<CurlHTTPClient.Reply, any Error>, FakeHTTPServer) {
    let server = try FakeHTTPServer(reply: reply)
    defer { server.stop() }
    let result = Result {
      try CurlHTTPClient().post(server.endpoint + "/v3/kv/range", body: Data("{}".utf8), timeout: 5)
    }
    return (result, server)
  }

  func httpErrorKind(_ result: Result<CurlHTTPClient.Reply, any Error>) -> HTTPError.Kind? {
    guard case .failure(let error as HTTPError) = result else { return nil }
    return error.kind
  }

  @Test func aReplyThatIsNotHTTPIsAMalformedReply() throws {
    let (result, _) = try post("hello, this is not HTTP\r\n\r\n")
    #expect(httpErrorKind(result) == .malformedReply)
  }

  @Test func aBodyShorterThanItsContentLengthIsAMalformedReply() throws {
    let (result, _) = try post("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"kvs\":")
    #expect(httpErrorKind(result) == .malformedReply)
  }

  @Test func aChunkedBodyCutInAChunkIsAnError() throws {
    let (result, _) = try post(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n{\"kvs\":")
    #expect(httpErrorKind(result) != nil)
  }

  @Test func aTrailerEndedReplyIsReadWhole() throws {
    let body = #"{"header":{"revision":"7"}}"#
    let (result, _) = try post(chunkedReply(status: "200 OK", body: body))
    let reply = try result.get()
    #expect(reply.status == 200)
    #expect(String(decoding: reply.body, as: UTF8.self) == body)
  }

  @Test func etcdErrorRepliesWithTrailersBecomeEtcdErrors() throws {
    let cases: [(String, EtcdError.Kind)] = [
      (
        #"{"error":"etcdserver: mvcc: required revision has been compacted","code":11,"message":"etcdserver: mvcc: required revision has been compacted"}"#,
        .compacted(revision: 0)
      ),
      (
        #"{"error":"etcdserver: permission denied","code":7,"message":"etcdserver: permission denied"}"#,
        .permissionDenied
      ),
      (
        #"{"error":"etcdserver: request is too large","code":3,"message":"etcdserver: request is too large"}"#,
        .server(code: 3)
      ),
    ]
    for (body, kind) in cases {
      let server = try FakeHTTPServer(reply: chunkedReply(status: "400 Bad Request", body: body))
      defer { server.stop() }
      let error = try #require(throws: EtcdError.self) {
        try client(server).range(key: Data("/a".utf8), rangeEnd: Data("/b".utf8))
      }
      #expect(error.kind == kind)
      #expect(error.description.contains(server.endpoint))
    }
  }

  @Test func aTrailerEndedReplyThatIsNotAnEtcdReplyIsRefusedAsMalformed() throws {
    let server = try FakeHTTPServer(
      reply: chunkedReply(status: "200 OK", body: #"{"kvs":"not an array"}"#))
    defer { server.stop() }
    let error = try #require(throws: EtcdError.self) {
      try client(server).range(key: Data("/a".utf8), rangeEnd: Data("/b".utf8))
    }
    #expect(error.kind == .unreachable)
    #expect(error.message.contains("not an etcd reply"))
  }

  @Test func aWatchStreamCutInALineDeliversTheWholeLinesThenFails() throws {
    let lines =
      #"{"result":{"created":true}}"# + "\n" + #"{"result":{"events":[]}}"# + "\n"
      + #"{"result":{"ev"#
    let size = String(lines.utf8.count, radix: 16)
    let server = try FakeHTTPServer(
      reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\n\(lines)\r\n")
    defer { server.stop() }
    let received = LineLog()
    #expect(throws: HTTPError.self) {
      _ = try CurlHTTPClient().stream(
        server.endpoint + "/v3/watch", body: Data("{}".utf8), idleTimeout: 5,
        isCancelled: { false },
        onLine: { line in
          received.append(String(decoding: line, as: UTF8.self))
          return true
        })
    }
    #expect(received.all == [#"{"result":{"created":true}}"#, #"{"result":{"events":[]}}"#])
  }

  @Test func aDeviceWhoseOnlyMemberSendsGarbageIsOfflineAndKeepsItsWrites() async throws {
    let server = try FakeHTTPServer(
      reply: chunkedReply(status: "200 OK", body: "<html>proxy error</html>"))
    defer { server.stop() }
    let backend = try EtcdCloudBackend(
      configuration: EtcdConfiguration(
        endpoints: [server.endpoint], root: "r", container: "c", requestTimeout: 0.3))
    let store = NSUbiquitousKeyValueStore(backend: backend)
    store.set("kept", forKey: "k")
    #expect(await poll { backend.syncStatus.summary == "offline, 1 pending" })
    #expect(store.string(forKey: "k") == "kept")
    #expect(backend.syncStatus.lastError?.contains("not an etcd reply") == true)
    #expect(server.requestCount > 0)
  }
}

/// Lines received by a stream's handler.
final class LineLog: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}

/// A member whose reply exceeds the client's bounds is treated as failed, and the next member
/// answers.
@Suite struct EtcdReplyBoundTests {
  func rangeThroughFake(_ reply: String) async throws -> (EtcdRangeResponse, Int, String) {
    let fake = try FakeHTTPServer(reply: reply)
    defer { fake.stop() }
    let cluster = try await EtcdTestCluster.shared()
    let client = EtcdClient(
      endpoints: [fake.endpoint] + cluster.endpoints, credentials: nil, tls: CloudTLSFiles(),
      requestTimeout: 10, connectTimeout: 1)
    let root = freshEtcdRoot()
    let layout = EtcdKeyLayout(root: root, container: "bounds", account: "a")
    let response = try client.range(key: layout.prefixKey, rangeEnd: layout.rangeEnd)
    return (response, fake.requestCount, client.currentEndpoint)
  }

  @Test func aReplyWithMoreKeysThanTheBoundGoesToTheNextMember() async throws {
    let body = #"{"header":{"revision":"7"},"kvs":[],"more":true}"#
    let (response, fakeRequests, answered) = try await rangeThroughFake(
      "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    #expect(response.more != true)
    #expect(fakeRequests == 1)
    #expect(answered == (try await EtcdTestCluster.shared().endpoints[0]))
  }

  @Test func aReplyLargerThan16MiBGoesToTheNextMember() async throws {
    let body = #"{"kvs":[""# + String(repeating: "A", count: EtcdClient.maximumReplyBytes) + "\"}]}"
    let (_, fakeRequests, answered) = try await rangeThroughFake(
      "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    #expect(fakeRequests == 1)
    #expect(answered == (try await EtcdTestCluster.shared().endpoints[0]))
  }

  @Test func aMemberAloneWithAnOversizedReplyFailsNamingTheBound() throws {
    let body = #"{"kvs":[],"more":true}"#
    let fake = try FakeHTTPServer(
      reply: "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    defer { fake.stop() }
    let client = EtcdClient(
      endpoints: [fake.endpoint], credentials: nil, tls: CloudTLSFiles(), requestTimeout: 0.5,
      connectTimeout: 1)
    #expect {
      _ = try client.range(key: Data("/a/".utf8), rangeEnd: Data("/a0".utf8))
    } throws: { error in
      "\(error)".contains("\(fake.endpoint)/v3/kv/range: the reply holds more than 16384 keys")
    }
  }
}
