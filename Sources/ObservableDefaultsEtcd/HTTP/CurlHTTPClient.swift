import CCurl
import Foundation
import ObservableDefaultsCore

/// HTTP `POST` over libcurl's easy interface: one-shot requests, and streamed replies split into
/// lines (etcd's `/v3/watch` sends one JSON object per line, a large one over many chunks).
///
/// Replies that are malformed, truncated or end with a chunked trailer never crash the process:
/// libcurl parses them, and every failure becomes an ``HTTPError``. (FoundationNetworking's
/// `URLSession` stops the process on a chunked reply with a trailer, which is how etcd's JSON
/// gateway ends every error reply; see `/work/shared/README.md` fact 11.) Idle connections are
/// kept in a small pool, so consecutive requests to one server reuse their connection.
final class CurlHTTPClient: @unchecked Sendable {
  // Sendable: `idleHandles` (libcurl easy handles) is guarded by `lock`; each handle serves
  // one request at a time.
  /// A complete reply.
  struct Reply {
    /// The HTTP status code.
    let status: Int
    /// The body, de-chunked.
    let body: Data
  }

  /// The TLS files for `https` URLs.
  let tls: CloudTLSFiles
  /// The proxy of every request, or nil for none; proxies named by the environment are never
  /// used (see `perform`).
  let proxy: String?
  /// The longest wait for a connection, in seconds.
  let connectTimeout: TimeInterval
  /// The largest reply body accepted, in bytes; a longer one is refused as malformed.
  let maximumReplyBytes: Int

  /// Why libcurl cannot be used (it is loaded on first use), or nil.
  private static let loadingFailure: String? = ccurl_load().map { String(cString: $0) }
  private let lock = NSLock()
  private var idleHandles: [UnsafeMutableRawPointer] = []

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - tls: CA and client-certificate files for `https`.
  ///   - proxy: The proxy of every request (any form `CURLOPT_PROXY` takes), or nil for none.
  ///   - connectTimeout: Seconds to wait for a connection.
  ///   - maximumReplyBytes: The largest reply body accepted.
  init(
    tls: CloudTLSFiles = CloudTLSFiles(), proxy: String? = nil, connectTimeout: TimeInterval = 2,
    maximumReplyBytes: Int = 64 << 20
  ) {
    self.tls = tls
    self.proxy = proxy
    self.connectTimeout = connectTimeout
    self.maximumReplyBytes = maximumReplyBytes
  }

  deinit {
    for handle in idleHandles { ccurl_easy_cleanup(handle) }
  }

  /// Posts `body` and waits for the whole reply.
  ///
  /// - Parameters:
  ///   - url: The full URL.
  ///   - body: The request body.
  ///   - headers: Extra header lines (`Name: value`).
  ///   - timeout: Seconds for the whole exchange.
  /// - Returns: The status and body, whatever the status.
  /// - Throws: ``HTTPError`` when no complete, well-formed reply arrived in time.
  func post(_ url: String, body: Data, headers: [String] = [], timeout: TimeInterval) throws
    -> Reply
  {
    let transfer = Transfer(maximumBytes: maximumReplyBytes, lineHandler: nil, isCancelled: nil)
    let status = try perform(url, body: body, headers: headers, transfer: transfer) { handle in
      _ = ccurl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout))
    }
    return Reply(status: status, body: transfer.body)
  }

  /// Posts `body` and hands each line of the streamed reply to `onLine` as it arrives, until the
  /// server ends the reply, `isCancelled` returns true (checked about once a second and between
  /// chunks), `onLine` returns false, or nothing arrives for `idleTimeout` seconds.
  ///
  /// - Parameters:
  ///   - url: The full URL.
  ///   - body: The request body.
  ///   - headers: Extra header lines.
  ///   - idleTimeout: Seconds without a byte after which the stream is ended as timed out.
  ///   - isCancelled: Polled by libcurl; true ends the stream.
  ///   - onLine: Called with each complete line (without its newline); false ends the stream.
  /// - Returns: The HTTP status, when the server ended the reply (a final line without newline is
  ///   delivered too); any lines of a non-200 reply went to `onLine` as well.
  /// - Throws: ``HTTPError`` (kind `.cancelled` after `isCancelled` or `onLine` ended it).
  func stream(
    _ url: String, body: Data, headers: [String] = [], idleTimeout: TimeInterval,
    isCancelled: @escaping () -> Bool, onLine: @escaping (Data) -> Bool
  ) throws -> Int {
    let transfer = Transfer(
      maximumBytes: maximumReplyBytes, lineHandler: onLine, isCancelled: isCancelled)
    let status = try perform(url, body: body, headers: headers, transfer: transfer, pooled: false) {
      handle in
      _ = ccurl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
      _ = ccurl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(idleTimeout.rounded(.up))))
      _ = ccurl_set_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
      _ = ccurl_set_progress_function(handle, progressFunction, transfer.context)
    }
    transfer.flushLastLine()
    return status
  }

  // MARK: One exchange

  private func perform(
    _ url: String, body: Data, headers: [String], transfer: Transfer, pooled: Bool = true,
    configure: (UnsafeMutableRawPointer) -> Void
  ) throws -> Int {
    let endpoint = Self.endpoint(of: url)
    if let failure = Self.loadingFailure {
      throw HTTPError(kind: .unreachable, endpoint: endpoint, reason: failure)
    }
    guard let handle = takeHandle(pooled: pooled) else {
      throw HTTPError(
        kind: .unreachable, endpoint: endpoint, reason: "libcurl could not create a handle")
    }
    var headerList: UnsafeMutablePointer<curl_slist>? = nil
    for line in ["Content-Type: application/json", "Expect:"] + headers {
      headerList = ccurl_slist_append(headerList, line)
    }
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    defer {
      ccurl_slist_free_all(headerList)
      errorBuffer.deallocate()
      giveBack(handle, pooled: pooled)
    }
    _ = ccurl_set_string(handle, CURLOPT_URL, url)
    _ = ccurl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
    _ = ccurl_set_long(handle, CURLOPT_NOSIGNAL, 1)
    // Without CURLOPT_PROXY, libcurl takes a proxy from `http_proxy`, `HTTPS_PROXY`, `ALL_PROXY`
    // (and skips it for `NO_PROXY` hosts). "Setting the proxy string to "" (an empty string)
    // explicitly disables the use of a proxy, even if there is an environment variable set for
    // it" (CURLOPT_PROXY(3)); and "Setting the noproxy string to "" (an empty string) will
    // explicitly enable the proxy for all host names, even if there is an environment variable
    // set for it" (CURLOPT_NOPROXY(3)). So the configuration alone decides.
    _ = ccurl_set_string(handle, CURLOPT_PROXY, proxy ?? "")
    _ = ccurl_set_string(handle, CURLOPT_NOPROXY, "")
    _ = ccurl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
    _ = ccurl_set_headers(handle, headerList)
    _ = ccurl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    let payload = body.isEmpty ? Data("{}".utf8) : body
    _ = payload.withUnsafeBytes { bytes in
      ccurl_set_post_body(
        handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), payload.count)
    }
    if let caFile = tls.caFile { _ = ccurl_set_string(handle, CURLOPT_CAINFO, caFile) }
    if let certificate = tls.certificateFile {
      _ = ccurl_set_string(handle, CURLOPT_SSLCERT, certificate)
    }
    if let key = tls.keyFile { _ = ccurl_set_string(handle, CURLOPT_SSLKEY, key) }
    _ = ccurl_set_write_function(handle, writeFunction, transfer.context)
    configure(handle)

    let code = withExtendedLifetime(transfer) { ccurl_easy_perform(handle) }
    guard code == CURLE_OK else {
      let detail = String(cString: errorBuffer)
      let reason =
        transfer.failureReason
        ?? (detail.isEmpty ? String(cString: ccurl_easy_strerror(code)) : detail)
      let kind = transfer.failureKind ?? Self.kind(of: code)
      if kind == .unreachable, ccurl_tls_established(handle) != 0, ccurl_response_code(handle) == 0
      {
        throw HTTPError(kind: .tls, endpoint: endpoint, reason: closedAfterHandshake(reason))
      }
      throw HTTPError(kind: kind, endpoint: endpoint, reason: reason)
    }
    return ccurl_response_code(handle)
  }

  /// Why a server ends a connection right after a finished TLS handshake, without a reply: with
  /// TLS 1.3 a server checks the client's certificate after the client finished, and one that
  /// requires a certificate it did not get or does not trust closes the connection (libcurl then
  /// reports only the broken connection, such as `getpeername() failed with errno 107`).
  private func closedAfterHandshake(_ detail: String) -> String {
    let cause =
      tls.certificateFile == nil
      ? "it requires a client certificate, and none is configured (cert-file and key-file)"
      : "it does not accept the client certificate \(tls.certificateFile ?? "")"
    return
      "the server closed the connection after the TLS handshake; most likely \(cause) (\(detail))"
  }

  private func takeHandle(pooled: Bool) -> UnsafeMutableRawPointer? {
    if pooled, let handle = lock.withLock({ idleHandles.popLast() }) { return handle }
    return ccurl_easy_init()
  }

  private func giveBack(_ handle: UnsafeMutableRawPointer, pooled: Bool) {
    ccurl_easy_reset(handle)
    let kept =
      pooled
      && lock.withLock {
        guard idleHandles.count < 4 else { return false }
        idleHandles.append(handle)
        return true
      }
    if !kept { ccurl_easy_cleanup(handle) }
  }

  private static func kind(of code: CURLcode) -> HTTPError.Kind {
    switch code {
    case CURLE_OPERATION_TIMEDOUT: .timedOut
    case CURLE_WEIRD_SERVER_REPLY, CURLE_PARTIAL_FILE, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2,
      CURLE_HTTP2_STREAM, CURLE_UNSUPPORTED_PROTOCOL, CURLE_FILESIZE_EXCEEDED:
      .malformedReply
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
      CURLE_SSL_ENGINE_SETFAILED,
      CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
      CURLE_USE_SSL_FAILED:
      .tls
    case CURLE_ABORTED_BY_CALLBACK: .cancelled
    default: .unreachable
    }
  }

  /// `scheme://host:port` of `url` (what errors name; never a path, query or user).
  static func endpoint(of url: String) -> String {
    guard let components = URLComponents(string: url), let scheme = components.scheme,
      let host = components.host
    else { return "(invalid URL)" }
    return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
  }

  private static func milliseconds(_ seconds: TimeInterval) -> Int {
    max(1, Int((seconds * 1000).rounded(.up)))
  }
}

/// The state of one transfer, reached from libcurl's callbacks through an unretained pointer.
private final class Transfer {
  var body = Data()
  private var pendingLine = Data()
  private var receivedBytes = 0
  let maximumBytes: Int
  let lineHandler: ((Data) -> Bool)?
  let isCancelled: (() -> Bool)?
  /// Set when a callback ended the transfer: why.
  var failureKind: HTTPError.Kind?
  /// Set when the reply was too large: the reason for people.
  var failureReason: String?

  init(maximumBytes: Int, lineHandler: ((Data) -> Bool)?, isCancelled: (() -> Bool)?) {
    self.maximumBytes = maximumBytes
    self.lineHandler = lineHandler
    self.isCancelled = isCancelled
  }

  var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// Takes a chunk; false ends the transfer.
  func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    receivedBytes += bytes.count
    guard let lineHandler else {
      guard receivedBytes <= maximumBytes else { return tooLarge() }
      body.append(contentsOf: bytes)
      return true
    }
    if isCancelled?() == true { return stop(.cancelled) }
    var start = bytes.startIndex
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
      pendingLine.append(contentsOf: bytes[start..<newline])
      let line = pendingLine
      pendingLine = Data()
      start = newline + 1
      if !line.isEmpty, !lineHandler(line) { return stop(.cancelled) }
    }
    pendingLine.append(contentsOf: bytes[start...])
    guard pendingLine.count <= maximumBytes else { return tooLarge() }
    return true
  }

  private func tooLarge() -> Bool {
    failureReason = "the reply is larger than \(maximumBytes) bytes"
    return stop(.malformedReply)
  }

  /// Hands over a last line that had no newline.
  func flushLastLine() {
    guard let lineHandler, !pendingLine.isEmpty else { return }
    _ = lineHandler(pendingLine)
    pendingLine = Data()
  }

  private func stop(_ kind: HTTPError.Kind) -> Bool {
    failureKind = kind
    return false
  }

  /// Whether the caller cancelled (polled by libcurl's progress callback).
  func shouldAbort() -> Bool {
    guard isCancelled?() == true else { return false }
    failureKind = .cancelled
    return true
  }
}

private let writeFunction: ccurl_write_function = { data, size, count, context in
  let length = size * count
  guard let data, let context else { return length }
  let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
  return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let progressFunction: ccurl_progress_function = { context, _, _, _, _ in
  guard let context else { return 0 }
  return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().shouldAbort() ? 1 : 0
}
