import CNATS
import Foundation
import ObservableDefaultsCore

/// One account's bucket of a container, open on a connection: its last revision, one key's
/// latest entry, and writing one key only if the bucket's last revision is still the one read.
///
/// A bucket that has no revision yet gets one when opened: a marker under the NATS key
/// ``NATSKeyLayout/markerKey``, which is no store key. JetStream's expected last sequence
/// cannot say "none" (libnats and nats-server 2.9 ignore 0), so every record's write needs a
/// revision before it.
final class NATSBucket: @unchecked Sendable {
  // Sendable: `store` is a libnats key-value handle, which libnats lets any thread use.
  /// One key's latest entry: its revision (the stream sequence that wrote it) and its record
  /// (nil when the stored bytes are not a valid record).
  struct Entry: Sendable {
    /// The record, or nil when the key's bytes were refused (see ``refusal``).
    let record: CloudRecord?
    let revision: UInt64
    /// Why the key's bytes are not a valid record, when they are not.
    var refusal: String? = nil
  }

  let layout: NATSKeyLayout
  /// The stream's creation time (ns since 1970): identifies this bucket in cursors.
  let created: Int64
  private let connection: NATSConnection
  private let store: OpaquePointer

  /// Opens the bucket of `layout`, creating it with ``NATSBucketLimits`` when it does not exist.
  ///
  /// - Throws: ``NATSError``: `.unreachable` (also while too few servers have met for the
  ///   replicas, JetStream error 10005: tried again within the request timeout),
  ///   `.permissionDenied`, or `.refused` (e.g. the account's JetStream limits).
  init(_ layout: NATSKeyLayout, on connection: NATSConnection, replicas: Int) throws(NATSError) {
    self.layout = layout
    self.connection = connection
    let store = try connection.retryingWhileLeaderless { () throws(NATSError) in
      try Self.open(layout, on: connection, replicas: replicas)
    }
    do {
      let state = try connection.retryingWhileLeaderless { () throws(NATSError) in
        try Self.streamState(layout, on: connection)
      }
      created = state.created
      if state.lastRevision == 0 {
        // Several devices may write the marker at once; one revision of it is kept.
        try connection.retryingWhileLeaderless { () throws(NATSError) in
          var revision: UInt64 = 0
          try NATSError.check(
            kvStore_PutString(&revision, store, NATSKeyLayout.markerKey, "bucket"),
            doing: "marking the bucket \(layout.bucket)")
        }
      }
    } catch {
      kvStore_Destroy(store)
      throw error
    }
    self.store = store
  }

  /// Opens the bucket, or creates it when it does not exist.
  private static func open(_ layout: NATSKeyLayout, on connection: NATSConnection, replicas: Int)
    throws(NATSError) -> OpaquePointer
  {
    var store: OpaquePointer?
    var status = js_KeyValue(&store, connection.jetStream, layout.bucket)
    if status == NATS_NOT_FOUND {
      var creation: NATSError?
      do throws(NATSError) {
        try create(layout, on: connection, replicas: replicas)
      } catch {
        creation = error
      }
      // When the creation failed, another device may have created it meanwhile.
      status = js_KeyValue(&store, connection.jetStream, layout.bucket)
      if status != NATS_OK, let creation { throw creation }
    }
    try NATSError.check(status, doing: "opening the bucket \(layout.bucket)")
    return store!
  }

  /// Creates the bucket's stream as libnats' `js_CreateKeyValue` does (the subjects `$KV.<bucket>.>`,
  /// rollups allowed, deletes denied, direct gets, new messages discarded at the limits), with
  /// ``NATSBucketLimits`` and the key count, which libnats' `kvConfig` cannot set:
  /// ``NATSBucketLimits/maximumMessages``.
  ///
  /// - Throws: ``NATSError``, e.g. `.refused(code: 10047)` when the account's JetStream storage
  ///   (`max_file`) has no room for the bucket's bytes, or `.refused(code: 10074)` when the
  ///   servers form no cluster for `replicas` above 1 (its message says how to fix it).
  private static func create(_ layout: NATSKeyLayout, on connection: NATSConnection, replicas: Int)
    throws(NATSError)
  {
    var config = jsStreamConfig()
    jsStreamConfig_Init(&config)
    config.MaxMsgsPerSubject = Int64(NATSBucketLimits.history)
    config.MaxMsgs = NATSBucketLimits.maximumMessages
    config.MaxBytes = NATSBucketLimits.maximumBytes
    config.MaxMsgSize = NATSBucketLimits.maximumValueBytes
    config.Discard = js_DiscardNew
    config.Storage = js_FileStorage
    config.Replicas = Int64(replicas)
    config.AllowRollup = true
    config.DenyDelete = true
    config.AllowDirect = true
    config.Duplicates = 120_000_000_000
    var code = jsErrCode(0)
    let status = layout.stream.withCString { name in
      layout.allSubjects.withCString { subject in
        var subjects: [UnsafePointer<CChar>?] = [subject]
        return subjects.withUnsafeMutableBufferPointer { list in
          config.Name = name
          config.Subjects = list.baseAddress
          config.SubjectsLen = 1
          return js_AddStream(nil, connection.jetStream, &config, nil, &code)
        }
      }
    }
    do throws(NATSError) {
      try NATSError.check(status, code: code, doing: "creating the bucket \(layout.bucket)")
    } catch  where error.kind == .refused(code: 10074) {
      // JetStream's words (10074, "replicas > 1 not supported in non-clustered mode") name
      // neither the setting nor the fix.
      throw NATSError(
        kind: error.kind,
        message: "\(error.message): a bucket of \(replicas) replicas needs a JetStream cluster"
          + " of at least \(replicas) servers; set nats-replicas"
          + " (OBSERVABLE_DEFAULTS_NATS_REPLICAS) to 1 for a single server")
    }
  }

  /// The highest revision written to the bucket so far.
  ///
  /// - Throws: ``NATSError`` when the servers do not answer or refuse; `.notFound` when the
  ///   bucket was deleted, also when it was made again since it was opened (its stream has
  ///   another creation time: its revisions start again, and no cursor of this one holds there).
  func lastRevision() throws(NATSError) -> UInt64 {
    let state = try connection.retryingWhileLeaderless { () throws(NATSError) in
      try Self.streamState(layout, on: connection)
    }
    guard state.created == created else {
      throw NATSError(
        kind: .notFound, message: "the bucket \(layout.bucket) was deleted and made again")
    }
    return state.lastRevision
  }

  /// The stream's creation time and last sequence.
  private static func streamState(_ layout: NATSKeyLayout, on connection: NATSConnection)
    throws(NATSError) -> (created: Int64, lastRevision: UInt64)
  {
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(0)
    var options = jsOptions()
    jsOptions_Init(&options)
    options.Wait = connection.timeoutMilliseconds
    try NATSError.check(
      js_GetStreamInfo(&info, connection.jetStream, layout.stream, &options, &code), code: code,
      doing: "reading the state of the bucket \(layout.bucket)")
    defer { jsStreamInfo_Destroy(info) }
    return (info?.pointee.Created ?? 0, info?.pointee.State.LastSeq ?? 0)
  }

  deinit {
    kvStore_Destroy(store)
  }

  /// How a write ended when the server did not store it.
  enum WriteRefusal: Error, Equatable {
    /// The bucket's last revision is no longer the expected one: another device wrote.
    case conflict
    /// The bucket's bytes would exceed ``NATSBucketLimits/maximumBytes``, or its keys
    /// ``NATSBucketLimits/maximumMessages``.
    case full
    /// Another failure.
    case failed(NATSError)
  }

  /// Writes `bytes` to `key` only if the bucket's last revision is still `last`, tagging the
  /// message with `header` (name → value).
  ///
  /// - Returns: The new revision.
  /// - Throws: ``WriteRefusal``.
  func write(_ bytes: Data, to key: String, ifLastRevision last: UInt64, header: [String: String])
    throws(WriteRefusal) -> UInt64
  {
    var refusal: WriteRefusal?
    let written: UInt64
    do {
      written = try connection.retryingWhileLeaderless { () throws(NATSError) -> UInt64 in
        do throws(WriteRefusal) {
          return try writeOnce(bytes, to: key, ifLastRevision: last, header: header)
        } catch .failed(let error) {
          throw error
        } catch {
          refusal = error
          return 0
        }
      }
    } catch {
      throw .failed(error)
    }
    if let refusal { throw refusal }
    return written
  }

  private func writeOnce(
    _ bytes: Data, to key: String, ifLastRevision last: UInt64, header: [String: String]
  ) throws(WriteRefusal) -> UInt64 {
    var message: OpaquePointer?
    let status = bytes.withUnsafeBytes { buffer in
      natsMsg_Create(
        &message, layout.subject(key), nil, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
        Int32(buffer.count))
    }
    guard status == NATS_OK, let message else {
      throw .failed(NATSError(status, doing: "writing \(layout.subject(key))"))
    }
    defer { natsMsg_Destroy(message) }
    for (name, value) in header { natsMsgHeader_Set(message, name, value) }
    var options = jsPubOptions()
    jsPubOptions_Init(&options)
    options.MaxWait = connection.timeoutMilliseconds
    options.ExpectLastSeq = last
    var acknowledgement: UnsafeMutablePointer<jsPubAck>?
    var code = jsErrCode(0)
    let published = js_PublishMsg(&acknowledgement, connection.jetStream, message, &options, &code)
    defer { jsPubAck_Destroy(acknowledgement) }
    guard published == NATS_OK else {
      let error = NATSError(published, code: code, doing: "writing \(layout.subject(key))")
      if code == JSStreamWrongLastSequenceErr { throw .conflict }
      if code == JSStreamStoreFailedErr,
        error.message.hasSuffix("maximum bytes exceeded")
          || error.message.hasSuffix("maximum messages exceeded")
      {
        throw .full
      }
      throw .failed(error)
    }
    return acknowledgement?.pointee.Sequence ?? 0
  }
}
