import Foundation
import ObservableDefaultsCore

/// One subscription's resilient watch of an account prefix, on its own thread.
///
/// 1. Catch-up: a range read of the keys modified after the resume point (all keys for none, or
///    for a cursor of another cluster) is delivered as one change; the watch starts after the
///    read's revision.
/// 2. Watch: `/v3/watch` from the last revision + 1 with progress notifications, on the member in
///    use. Each response's events are delivered as one change; progress notifications move the
///    resume point without delivering anything.
/// 3. When the stream fails (member killed, no leader, idle timeout, malformed line), it
///    reconnects to the next member from the last revision + 1, after a short back-off. Events at
///    or before the last delivered revision are dropped, so nothing is delivered twice. When the
///    resume point was compacted, step 1 runs again from it: one change with only the keys
///    modified since.
final class EtcdWatch: CloudEngineWatch, @unchecked Sendable {
  // Sendable: `cancelled` is guarded by `lock`; the other vars are used on the watch's thread
  // only.
  /// What the watch reports to its backend.
  struct Callbacks: Sendable {
    /// Records to deliver, with the resume point after them.
    let deliver: @Sendable (DecodedRecords, EtcdCursor) -> Void
    /// Store keys whose etcd keys another client deleted (an operator's `etcdctl del --prefix`,
    /// a restore): devices never delete one, a removal is a record.
    let erased: @Sendable ([String]) -> Void
    /// Whether the last exchange succeeded (for the sync status), with the failure, and whether
    /// every member failed in a row since the last success (a round of failovers that found no
    /// member: the cluster is unreachable, not one member).
    let reachability: @Sendable (EtcdError?, _ endpoint: String, _ everyMemberFailed: Bool) -> Void
  }

  private let client: EtcdClient
  private let layout: EtcdKeyLayout
  private let idleTimeout: TimeInterval
  private let callbacks: Callbacks
  private let lock = NSLock()
  // Guarded by `lock`.
  private var cancelled = false
  // Used on the watch thread only.
  private var through: Int64
  private var clusterID: String?
  private var needsCatchUp = true
  private var endpointIndex = 0
  /// The failures since the last success.
  private var failuresInARow = 0

  /// Starts watching `layout`'s prefix after `cursor` (everything for nil).
  init(
    client: EtcdClient, layout: EtcdKeyLayout, from cursor: EtcdCursor?, idleTimeout: TimeInterval,
    callbacks: Callbacks
  ) {
    self.client = client
    self.layout = layout
    self.idleTimeout = idleTimeout
    self.callbacks = callbacks
    through = cursor?.revision ?? 0
    clusterID = cursor?.identity
    endpointIndex = client.endpoints.firstIndex(of: client.currentEndpoint) ?? 0
    let thread = Thread { [self] in run() }
    thread.name = "ObservableDefaults etcd watch"
    thread.start()
  }

  /// Ends the watch (its thread stops within about a second).
  func cancel() {
    lock.withLock { cancelled = true }
  }

  private var isCancelled: Bool {
    lock.withLock { cancelled }
  }

  private func run() {
    var backoff = 0.05
    while !isCancelled {
      let endpoint = client.endpoints[endpointIndex]
      do {
        if needsCatchUp { try catchUp() }
        try stream(from: endpoint)
        backoff = 0.05
      } catch let error as EtcdError {
        if case .compacted = error.kind {
          needsCatchUp = true
          continue
        }
        if isCancelled { return }
        failuresInARow += 1
        callbacks.reachability(error, endpoint, failuresInARow >= client.endpoints.count)
        if error.isInvalidToken { client.invalidateToken() }
        endpointIndex = (endpointIndex + 1) % client.endpoints.count
        sleep(seconds: backoff)
        backoff = min(backoff * 2, 1)
      } catch {
        return
      }
    }
  }

  /// Waits up to `seconds`, waking early when cancelled.
  private func sleep(seconds: TimeInterval) {
    let deadline = Date().addingTimeInterval(seconds)
    while !isCancelled, Date() < deadline { usleep(10_000) }
  }

  /// Reads the keys modified after ``through`` (all of them when the cluster is not the one of
  /// the resume point) and delivers them; the watch then resumes after the read's revision.
  private func catchUp() throws {
    let since = through > 0 && clusterID != nil ? through + 1 : nil
    var response = try client.range(
      key: layout.prefixKey, rangeEnd: layout.rangeEnd, minModRevision: since)
    if since != nil, response.header?.clusterId != clusterID {
      response = try client.range(key: layout.prefixKey, rangeEnd: layout.rangeEnd)
    }
    let cluster = response.header?.clusterId ?? ""
    let revision = response.header?.revision?.value ?? 0
    let read = EtcdRecordReader.records(response.kvs ?? [], layout: layout)
    clusterID = cluster
    through = max(revision, through)
    needsCatchUp = false
    reached(client.currentEndpoint)
    if !read.isEmpty {
      callbacks.deliver(read, EtcdCursor(identity: cluster, revision: through))
    }
  }

  /// Reports a successful exchange with `endpoint`.
  private func reached(_ endpoint: String) {
    failuresInARow = 0
    callbacks.reachability(nil, endpoint, false)
  }

  /// One watch stream on `endpoint`, until it ends.
  private func stream(from endpoint: String) throws {
    let request = EtcdWatchCreateRequest(
      createRequest: .init(
        key: layout.prefixKey, rangeEnd: layout.rangeEnd, startRevision: EtcdInt64(through + 1),
        progressNotify: true))
    let body = try EtcdJSON.encode(request)
    let headers = try client.headers(at: endpoint, timeout: client.requestTimeout)
    var failure: EtcdError?
    let status: Int
    do {
      status = try client.http.stream(
        endpoint + "/v3/watch", body: body, headers: headers, idleTimeout: idleTimeout,
        isCancelled: { [weak self] in self?.isCancelled ?? true },
        onLine: { [self] line in
          do {
            try handle(line, from: endpoint)
            return true
          } catch let error as EtcdError {
            failure = error
            return false
          } catch {
            return false
          }
        })
    } catch let error as HTTPError {
      if let failure { throw failure }
      throw EtcdError(
        kind: error.kind == .malformedReply ? .malformedReply : .unreachable,
        message: error.description)
    }
    if let failure { throw failure }
    throw EtcdError(kind: .unreachable, message: "\(endpoint) ended the watch (HTTP \(status))")
  }

  /// Handles one line of the stream.
  ///
  /// - Throws: ``EtcdError`` to end the stream (an error line, a cancellation, a malformed line).
  private func handle(_ line: Data, from endpoint: String) throws {
    let decoded: EtcdWatchLine
    do {
      decoded = try EtcdJSON.decode(EtcdWatchLine.self, from: line)
    } catch {
      throw EtcdError(
        kind: .malformedReply,
        message: "\(endpoint)/v3/watch: not a watch response (\(DecodingErrorText.describe(error)))"
      )
    }
    if let error = decoded.error {
      throw EtcdError.fromGateway(
        status: error.httpCode ?? 0, code: error.grpcCode, message: error.message,
        endpoint: endpoint)
    }
    guard let result = decoded.result else {
      throw EtcdError(
        kind: .malformedReply, message: "\(endpoint)/v3/watch: a line without result or error")
    }
    if result.canceled == true {
      if let compacted = result.compactRevision?.value, compacted > 0 {
        throw EtcdError(kind: .compacted(revision: compacted), message: "watch from \(through + 1)")
      }
      throw EtcdError.fromGateway(
        status: 0, code: nil, message: result.cancelReason ?? "watch cancelled", endpoint: endpoint)
    }
    if let cluster = result.header?.clusterId, cluster != clusterID {
      // Another cluster answers at this address: deliver everything again.
      clusterID = cluster
      through = 0
      needsCatchUp = true
      throw EtcdError(kind: .unreachable, message: "\(endpoint) belongs to another cluster")
    }
    let fresh = (result.events ?? []).filter { ($0.kv?.modRevision?.value ?? 0) > through }
    let events = fresh.compactMap { $0.type == "DELETE" ? nil : $0.kv }
    let erased = fresh.compactMap {
      $0.type == "DELETE" ? $0.kv.flatMap { layout.storeKey($0.key) } : nil
    }
    if result.created == true { reached(endpoint) }
    if !erased.isEmpty { callbacks.erased(erased) }
    if !fresh.isEmpty {
      through = fresh.compactMap { $0.kv?.modRevision?.value }.max() ?? through
      let read = EtcdRecordReader.records(events, layout: layout)
      if !read.isEmpty {
        callbacks.deliver(read, EtcdCursor(identity: clusterID ?? "", revision: through))
      }
    } else if result.created != true, result.events == nil,
      let revision = result.header?.revision?.value
    {
      through = max(through, revision)
    }
  }
}
