import Foundation
import ObservableDefaultsCore

/// A client of etcd's v3 JSON gateway over libcurl: ranges, transactions, watches and
/// authentication, with failover between the cluster's members.
///
/// - A request goes to the member that answered last; when it is unreachable, times out, has no
///   leader or sends a malformed reply, the next member is tried, and rounds over all members
///   repeat (after 50–400 ms pauses) within one overall time limit.
///   Every request this package sends is idempotent, so a retry after a failure that may have
///   committed does no harm.
/// - Every request carries `Grpc-Metadata-hasleader: true`, so a member that lost its leader
///   refuses (and closes watches) instead of staying silent.
/// - With credentials, a token from `/v3/auth/authenticate` goes in the `Authorization` header;
///   a refused token (expired, or the member restarted) is renewed once and the request repeated.
/// - Replies are bounded: at most ``maximumReplyBytes`` bytes and ``maximumKeysPerReply`` keys,
///   within the request's time limit. A member whose reply exceeds a bound is treated as failed
///   (another member is asked), so a fake or broken member cannot stall a device with a huge
///   reply.
final class EtcdClient: Sendable {
  /// The largest reply body read from a member: 16 MiB. An account within Apple's quota
  /// (1,024 keys, 1 MB) is about 1.4 MB as the gateway sends it (base64 in JSON); this leaves
  /// room for several devices' writes before the quota is enforced across them.
  static let maximumReplyBytes = 16 << 20
  /// The most keys one range reply may hold: 16,384, sixteen times Apple's 1,024-key quota.
  static let maximumKeysPerReply = 16_384

  /// The members' base URLs (`http://host:port`), in the order tried.
  let endpoints: [String]
  let credentials: EtcdCredentials?
  /// Seconds allowed for one request across all the members tried.
  let requestTimeout: TimeInterval
  let http: CurlHTTPClient

  private struct State {
    /// The index of the member tried first.
    var preferred = 0
    var token: String?
    var authentications = 0
  }
  private let state = AnnotatedMutex(State())

  /// Creates a client; nothing is sent yet.
  ///
  /// - Parameters:
  ///   - endpoints: The members' base URLs (`http://` or `https://`), at least one.
  ///   - credentials: The etcd user, or nil when authentication is off.
  ///   - tls: CA and client-certificate files for `https` endpoints.
  ///   - proxy: The proxy for every request, or nil to reach the members directly.
  ///   - requestTimeout: Seconds for one request, failovers included.
  ///   - connectTimeout: Seconds to wait for one member's connection.
  init(
    endpoints: [String], credentials: EtcdCredentials?, tls: CloudTLSFiles, proxy: String? = nil,
    requestTimeout: TimeInterval,
    connectTimeout: TimeInterval
  ) {
    self.endpoints = endpoints.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    self.credentials = credentials
    self.requestTimeout = requestTimeout
    http = CurlHTTPClient(
      tls: tls, proxy: proxy, connectTimeout: connectTimeout,
      maximumReplyBytes: Self.maximumReplyBytes)
  }

  /// The member that answered last (or will be tried first).
  var currentEndpoint: String {
    endpoints[state.withLock { $0.preferred }]
  }

  /// How many tokens were requested so far (tests count token renewals).
  var authenticationCount: Int {
    state.withLock { $0.authentications }
  }

  // MARK: Key-value

  /// Reads the keys in `[key, rangeEnd)`.
  ///
  /// - Parameters:
  ///   - minModRevision: Only keys modified at or after this revision.
  ///   - serializable: Answer from the member's own copy without asking the leader (answers
  ///     without quorum, possibly stale).
  /// - Throws: ``EtcdError``.
  ///   - countOnly: Return only the number of keys (a cheap reachability check).
  func range(
    key: Data, rangeEnd: Data, minModRevision: Int64? = nil, serializable: Bool = false,
    countOnly: Bool = false
  ) throws -> EtcdRangeResponse {
    try call(
      "/v3/kv/range",
      EtcdRangeRequest(
        key: key, rangeEnd: rangeEnd, minModRevision: minModRevision.map(EtcdInt64.init),
        serializable: serializable ? true : nil, countOnly: countOnly ? true : nil,
        limit: countOnly ? nil : EtcdInt64(Int64(Self.maximumKeysPerReply))))
  }

  /// Runs a transaction.
  ///
  /// - Throws: ``EtcdError``.
  func txn(_ request: EtcdTxnRequest) throws -> EtcdTxnResponse {
    try call("/v3/kv/txn", request)
  }

  // MARK: Requests with failover

  /// Posts `request` to `path`, trying the members in turn, and decodes the reply.
  ///
  /// - Throws: ``EtcdError``: the first error no other member can fix, or `.unreachable` naming
  ///   each member's failure.
  func call<Response: Decodable>(_ path: String, _ request: some Encodable) throws -> Response {
    let body = try EtcdJSON.encode(request)
    let deadline = Date().addingTimeInterval(requestTimeout)
    var index = state.withLock { $0.preferred }
    var failures: [String: String] = [:]
    var pause = 0.05
    while true {
      var everyHandshakeFailed = true
      for _ in endpoints {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return try giveUp(failures) }
        do {
          let response: Response = try call(endpoints[index], path, body: body, timeout: remaining)
          state.withLock { $0.preferred = index }
          return response
        } catch let error as EtcdError where error.triesAnotherMember {
          // An attempt the deadline cut short says less than the member's earlier failure (a
          // refused certificate, say): keep that one.
          let cutShort = remaining < http.connectTimeout
          if !cutShort || failures[endpoints[index]] == nil {
            failures[endpoints[index]] = error.message
          }
          everyHandshakeFailed = everyHandshakeFailed && error.isTLSFailure
        }
        index = (index + 1) % endpoints.count
      }
      // Every member failed (say, during a leader election): try again shortly, until the deadline;
      // but a round of refused handshakes is the configuration's, and another round repeats it.
      guard !everyHandshakeFailed, deadline.timeIntervalSinceNow > pause else {
        return try giveUp(failures)
      }
      Thread.sleep(forTimeInterval: pause)
      pause = min(pause * 2, 0.4)
    }
  }

  private func giveUp<Response>(_ failures: [String: String]) throws -> Response {
    let reasons =
      failures.isEmpty
      ? ["no time left within \(requestTimeout) s"] : failures.keys.sorted().map { failures[$0]! }
    throw EtcdError(kind: .unreachable, message: reasons.joined(separator: "; "))
  }

  /// Posts to one member, renewing the token once when it is refused.
  private func call<Response: Decodable>(
    _ endpoint: String, _ path: String, body: Data, timeout: TimeInterval
  ) throws -> Response {
    do {
      return try exchange(
        endpoint, path, body: body, timeout: timeout,
        headers: try headers(at: endpoint, timeout: timeout))
    } catch let error as EtcdError where credentials != nil && error.isInvalidToken {
      state.withLock { $0.token = nil }
      return try exchange(
        endpoint, path, body: body, timeout: timeout,
        headers: try headers(at: endpoint, timeout: timeout))
    }
  }

  /// One `POST` and its reply, decoded.
  private func exchange<Response: Decodable>(
    _ endpoint: String, _ path: String, body: Data, timeout: TimeInterval, headers: [String]
  ) throws -> Response {
    let reply: CurlHTTPClient.Reply
    do {
      reply = try http.post(endpoint + path, body: body, headers: headers, timeout: timeout)
    } catch let error as HTTPError {
      var failure = EtcdError(
        kind: error.kind == .malformedReply ? .malformedReply : .unreachable,
        message: error.description)
      failure.isTLSFailure = error.kind == .tls
      throw failure
    }
    guard reply.status == 200 else {
      let gateway = try? EtcdJSON.decode(EtcdGatewayError.self, from: reply.body)
      throw EtcdError.fromGateway(
        status: reply.status, code: gateway?.code, message: gateway?.message ?? gateway?.error,
        endpoint: endpoint)
    }
    let response: Response
    do {
      response = try EtcdJSON.decode(Response.self, from: reply.body)
    } catch {
      throw EtcdError(
        kind: .malformedReply,
        message: "\(endpoint)\(path): not an etcd reply (\(DecodingErrorText.describe(error)))")
    }
    if let exceeded = (response as? any EtcdBoundedReply)?.exceededBound {
      throw EtcdError(kind: .malformedReply, message: "\(endpoint)\(path): \(exceeded)")
    }
    return response
  }

  /// The headers of a request to `endpoint`: `hasleader`, and the token (requested first when
  /// there is none).
  func headers(at endpoint: String, timeout: TimeInterval) throws -> [String] {
    var headers = ["Grpc-Metadata-hasleader: true"]
    if let credentials {
      let current = state.withLock { $0.token }
      let value = try current ?? authenticate(credentials, at: endpoint, timeout: timeout)
      headers.append("Authorization: " + value)
    }
    return headers
  }

  /// Forgets the token, so the next request asks for a new one (after a watch saw it refused).
  func invalidateToken() {
    state.withLock { $0.token = nil }
  }

  private func authenticate(
    _ credentials: EtcdCredentials, at endpoint: String, timeout: TimeInterval
  ) throws -> String {
    let body = try EtcdJSON.encode(
      EtcdAuthenticateRequest(name: credentials.user, password: credentials.password))
    let response: EtcdAuthenticateResponse
    do {
      response = try exchange(
        endpoint, "/v3/auth/authenticate", body: body, timeout: timeout, headers: [])
    } catch let error as EtcdError
      where error.kind == .server(code: 3) || error.kind == .authenticationFailed
    {
      throw EtcdError(
        kind: .authenticationFailed, message: "\(credentials) was refused (\(endpoint))")
    }
    guard let token = response.token, !token.isEmpty else {
      throw EtcdError(
        kind: .malformedReply, message: "\(endpoint)/v3/auth/authenticate gave no token")
    }
    state.withLock {
      $0.token = token
      $0.authentications += 1
    }
    return token
  }

  /// Makes `endpoint` the one tried first.
  func prefer(_ endpoint: String) {
    guard let index = endpoints.firstIndex(of: endpoint) else { return }
    state.withLock { $0.preferred = index }
  }
}
