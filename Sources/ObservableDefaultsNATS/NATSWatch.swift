import CNATS
import Foundation
import ObservableDefaultsCore

/// One subscription's watch of a bucket: a JetStream ordered consumer on `$KV.<bucket>.>` that
/// starts just after the resume point.
///
/// - **Start**: from the revision after the cursor (by stream sequence), or from the first when
///   there is none or it belongs to another bucket. With one revision kept per key, that is
///   exactly each key changed since the cursor, at its latest revision. The keys stored when the
///   watch starts (up to the stream's last sequence then) are delivered as one change.
/// - **Batches**: a later change is delivered once the consumer has nothing pending and every save
///   it holds part of is complete (the ``NATSSave/header`` says how many keys each save
///   writes), so a save's keys arrive as one change; a save that wrote fewer keys than announced
///   (a conflict made it skip one) is delivered after ``incompleteSaveDelay``. A watch made with
///   `wholeSaves: false` (a device's ``NATSMirror``) does not wait for saves: it delivers as soon
///   as the consumer has nothing pending, with the parts of saves it holds (``Change/saves``).
/// - **Resilience**: libnats' ordered consumer survives a reconnection or a lost server: on a gap
///   or missed heartbeats (every ``heartbeat``) it creates the consumer again from the last
///   sequence received + 1. Revisions at or below the last one received are dropped, so nothing
///   is delivered twice. Until the first subscription succeeds (servers down, no bucket yet),
///   the watch tries again with a growing delay (at most 1 s).
/// - **A consumer that stays silent**: under load a subscription has once received nothing at
///   all, not even the bucket's first revision, for minutes (1 of 2,337 in a test run), and
///   libnats did not notice. Whoever reads the bucket's last revision from its leader tells the
///   watch (``expect(_:)``); a watch that stays behind it without receiving anything for
///   ``stallLimit`` subscribes again after what it received.
final class NATSWatch: CloudEngineWatch, @unchecked Sendable {
  // Sendable: its state is guarded by `lock`, and holds libnats handles (raw pointers).
  /// What the consumer received since the last change.
  struct Change: Sendable {
    /// The valid records, by store key.
    let records: [PropertyListKey: CloudRecord]
    /// Store key → why its bytes are not a valid record.
    let refused: [PropertyListKey: String]
    /// The latest revision of each key received, valid record or not.
    let revisions: [PropertyListKey: UInt64]
    /// The resume point after them.
    let cursor: NATSCursor
    /// Save id → (keys of it in this change, keys it announced), for saves after the catch-up.
    let saves: [String: (received: Int, announced: Int)]
  }

  /// Delivers a change (also one without valid records, so the cursor moves on).
  typealias Deliver = @Sendable (Change) -> Void

  /// The consumer's idle heartbeat: 1 s, in nanoseconds.
  static let heartbeat: Int64 = 1_000_000_000
  /// How long an incomplete save waits for the rest of its keys: 15 s. A save writes its keys one
  /// after another, each replicated before the next, and on a loaded machine two keys have come
  /// more than a second apart (a CI run delivered `x` of the save `x, y` alone), and more than 5 s
  /// apart in a run with every core busy. Only a save a conflict cut short (or a device that
  /// stopped in the middle of one) waits this long before its other devices see it.
  static let incompleteSaveDelay: TimeInterval = 15
  /// How long a watch behind the bucket's last revision may receive nothing before it
  /// subscribes again: 3 s, three ``heartbeat``s (libnats itself acts after two missed ones).
  static let stallLimit: TimeInterval = 3

  private let deliver: Deliver
  private let wholeSaves: Bool
  private let connection: NATSConnection
  private let open: @Sendable () throws -> NATSBucket
  private let lock = NSLock()
  // Guarded by `lock`.
  private var cancelled = false
  /// Whether a thread is subscribing (``start(after:)`` runs), as from the watch's creation.
  private var subscribing = true
  /// When the watch was first told (``expect(_:)``) of a revision it had not received, and what
  /// it had received then; nil while it is not behind.
  private var behind: (since: Date, received: UInt64)?
  /// How many messages the consumer said were still pending with the last one received.
  private var lastPending: UInt64 = 0
  /// Subscriptions made and kept, the first included: each one after a stall adds one.
  private(set) var subscriptionCount = 0
  private var subscription: OpaquePointer?
  private var closure: UnsafeMutableRawPointer?
  private var bucket: NATSBucket?
  private var received: UInt64 = 0
  private var catchUpThrough: UInt64 = 0
  private var batch: [(key: String, bytes: Data)] = []
  /// The batch's messages whose NATS key encodes no store key (see
  /// ``NATSKeyLayout/storeKey(_:)``), but the bucket's marker: refused.
  private var foreign: [RefusedRecords.Refusal] = []
  private var batchRevisions: [PropertyListKey: UInt64] = [:]
  private var batchRevision: UInt64 = 0
  /// Save id → (keys received, keys announced), for the saves in `batch` after the catch-up.
  private var saves: [String: (received: Int, announced: Int)] = [:]
  private var batchGeneration = 0

  /// Starts watching the bucket `open` returns, after `cursor`; `wholeSaves` makes a change wait
  /// for the rest of each save it holds part of.
  init(
    on connection: NATSConnection, open: @escaping @Sendable () throws -> NATSBucket,
    after cursor: NATSCursor?, wholeSaves: Bool = true, deliver: @escaping Deliver
  ) {
    self.deliver = deliver
    self.wholeSaves = wholeSaves
    self.connection = connection
    self.open = open
    startSubscribing(after: cursor)
  }

  /// Subscribes after `cursor` on a thread of its own (see ``start(after:)``).
  private func startSubscribing(after cursor: NATSCursor?) {
    let thread = Thread { [self] in start(after: cursor) }
    thread.name = "ObservableDefaults NATS watch"
    thread.start()
  }

  /// Ends the watch: nothing is delivered after this returns, except a delivery already running.
  func cancel() {
    lock.withLock { cancelled = true }
    dropSubscription()
  }

  /// Ends the current subscription (the watch itself goes on): libnats calls nothing of it after
  /// this returns, except a call already running.
  func dropSubscription() {
    let (subscription, closure) = lock.withLock {
      defer { (self.subscription, self.closure) = (nil, nil) }
      return (self.subscription, self.closure)
    }
    if let subscription {
      natsSubscription_Unsubscribe(subscription)
      natsSubscription_Destroy(subscription)
    }
    if let closure { NATSCallbacks.unregister(closure) }
  }

  /// Takes note that the bucket's leader reported `revision` as the bucket's last: when the
  /// watch has received nothing since it was first told of a revision it has not reached, for
  /// ``stallLimit`` or longer, it subscribes again after what it received (kept in its batch,
  /// so nothing is delivered twice or lost); when it has received `revision`, a batch it held
  /// because the consumer said more was pending is delivered (as when nothing is).
  func expect(_ revision: UInt64) {
    let resume = lock.withLock { () -> NATSCursor? in
      guard !cancelled, !subscribing, let bucket, revision > received else {
        behind = nil
        if !cancelled, revision <= received, lastPending > 0 {
          // The leader has nothing after what the watch received, so nothing is pending
          // whatever the consumer last said: a batch held for it goes out.
          lastPending = 0
          flushIfComplete(pending: 0)
        }
        return nil
      }
      guard let behind, behind.received == received else {
        behind = (Date(), received)
        return nil
      }
      guard Date().timeIntervalSince(behind.since) >= Self.stallLimit else { return nil }
      self.behind = nil
      subscribing = true
      return NATSCursor(identity: bucket.created, revision: received)
    }
    guard let resume else { return }
    dropSubscription()
    startSubscribing(after: resume)
  }

  private var isCancelled: Bool { lock.withLock { cancelled } }

  /// Subscribes, trying again until it works or the watch is cancelled.
  private func start(after cursor: NATSCursor?) {
    defer { lock.withLock { subscribing = false } }
    var delay = 0.05
    while !isCancelled {
      do {
        try subscribe(connection, to: open(), after: cursor)
        return
      } catch {
        let deadline = Date().addingTimeInterval(delay)
        while !isCancelled, Date() < deadline { usleep(10_000) }
        delay = min(delay * 2, 1)
      }
    }
  }

  private func subscribe(
    _ connection: NATSConnection, to bucket: NATSBucket, after cursor: NATSCursor?
  )
    throws(NATSError)
  {
    let start = cursor.flatMap { $0.identity == bucket.created ? $0.revision : nil } ?? 0
    let last = try bucket.lastRevision()
    let closure = NATSCallbacks.register(self)
    lock.withLock {
      self.bucket = bucket
      received = start
      catchUpThrough = last
      batchRevision = start
    }
    var options = jsSubOptions()
    jsSubOptions_Init(&options)
    options.Ordered = true
    options.Config.Heartbeat = Self.heartbeat
    if start > 0 {
      options.Config.DeliverPolicy = js_DeliverByStartSequence
      options.Config.OptStartSeq = start + 1
    } else {
      options.Config.DeliverPolicy = js_DeliverAll
    }
    var jsOptions = jsOptions()
    jsOptions_Init(&jsOptions)
    jsOptions.Wait = connection.timeoutMilliseconds
    let handler: natsMsgHandler = { _, _, message, closure in
      NATSCallbacks.object(closure, as: NATSWatch.self)?.receive(message)
      natsMsg_Destroy(message)
    }
    var subscription: OpaquePointer?
    var code = jsErrCode(0)
    let status = bucket.layout.stream.withCString { stream in
      options.Stream = stream
      return js_Subscribe(
        &subscription, connection.jetStream, bucket.layout.allSubjects, handler, closure,
        &jsOptions, &options, &code)
    }
    do {
      try NATSError.check(status, code: code, doing: "watching \(bucket.layout.allSubjects)")
    } catch {
      NATSCallbacks.unregister(closure)
      throw error
    }
    let kept = lock.withLock {
      guard !cancelled else { return false }
      (self.subscription, self.closure) = (subscription, closure)
      subscriptionCount += 1
      return true
    }
    if !kept {
      natsSubscription_Unsubscribe(subscription)
      natsSubscription_Destroy(subscription)
      NATSCallbacks.unregister(closure)
      return
    }
    if last <= start { lock.withLock { flushIfComplete(pending: 0) } }
  }

  /// Takes one message of the consumer (on libnats' delivery thread).
  private func receive(_ message: OpaquePointer?) {
    var metadata: UnsafeMutablePointer<jsMsgMetaData>?
    guard natsMsg_GetMetaData(&metadata, message) == NATS_OK, let metadata else { return }
    let (revision, pending) = (metadata.pointee.Sequence.Stream, metadata.pointee.NumPending)
    jsMsgMetaData_Destroy(metadata)
    var saveHeader: UnsafePointer<CChar>?
    let save =
      natsMsgHeader_Get(message, NATSSave.header, &saveHeader) == NATS_OK
      ? saveHeader.map { String(cString: $0) } : nil
    let subject = String(cString: natsMsg_GetSubject(message))
    let bytes = Data(
      bytes: natsMsg_GetData(message), count: Int(natsMsg_GetDataLength(message)))
    lock.withLock {
      guard !cancelled, revision > received, let bucket else { return }
      received = revision
      batchRevision = revision
      batchGeneration += 1
      if let key = bucket.layout.storeKey(subject: subject) {
        batch.append((key, bytes))
        batchRevisions[PropertyListKey(key)] = revision
      } else if let natsKey = bucket.layout.natsKey(subject: subject),
        natsKey != NATSKeyLayout.markerKey
      {
        foreign.append(
          RefusedRecords.Refusal(
            location: "NATS key \(bucket.layout.bucket).\(natsKey)", bytes: bytes,
            reason: "not the canonical encoding of a store key"))
      }
      if revision > catchUpThrough, let save {
        let parts = save.split(separator: " ")
        if parts.count == 2, let announced = Int(parts[1]) {
          saves[String(parts[0]), default: (0, announced)].received += 1
        }
      }
      lastPending = pending
      flushIfComplete(pending: pending)
    }
  }

  /// Delivers the batch when the consumer is past the catch-up with nothing pending and every
  /// save of the batch is complete; otherwise, when nothing is pending, after
  /// ``incompleteSaveDelay`` unless more messages come. Called with `lock` held.
  private func flushIfComplete(pending: UInt64) {
    guard pending == 0, received >= catchUpThrough else { return }
    if !wholeSaves || saves.values.allSatisfy({ $0.received >= $0.announced }) {
      flush()
      return
    }
    let generation = batchGeneration
    DispatchQueue.global().asyncAfter(deadline: .now() + Self.incompleteSaveDelay) {
      [weak self] in
      guard let self else { return }
      lock.withLock {
        if generation == batchGeneration, !cancelled { flush() }
      }
    }
  }

  /// Delivers the batch and starts a new one. Called with `lock` held, so deliveries keep the
  /// consumer's order.
  private func flush() {
    guard let bucket else { return }
    let decoded = CloudRecordCodec.records(batch) { "NATS key \(bucket.layout.bucket).\($0)" }
    RefusedRecords.report(foreign)
    foreign = []
    let change = Change(
      records: decoded.records, refused: decoded.refused, revisions: batchRevisions,
      cursor: NATSCursor(identity: bucket.created, revision: batchRevision), saves: saves)
    batch = []
    batchRevisions = [:]
    saves = [:]
    deliver(change)
  }
}
