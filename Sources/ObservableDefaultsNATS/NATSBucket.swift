import CNATS
import Foundation
import ObservableDefaultsCore

/// One account's bucket of a container, open on a connection: reading it whole, and writing one
/// key only if it still has the revision read.
final class NATSBucket: @unchecked Sendable {
  /// One key's latest entry: its record and its revision (the stream sequence that wrote it).
  struct Entry {
    let record: CloudRecord
    let revision: UInt64
  }

  let layout: NATSKeyLayout
  /// The stream's creation time (ns since 1970): identifies this bucket in cursors.
  let created: Int64
  private let connection: NATSConnection
  private let store: OpaquePointer

  /// Opens the bucket of `layout`, creating it with ``NATSBucketLimits`` when it does not exist.
  ///
  /// - Throws: ``NATSError``: `.unreachable`, `.permissionDenied`, or `.refused` (e.g. too few
  ///   servers for the replicas, JetStream error 10005, or the account's JetStream limits).
  init(_ layout: NATSKeyLayout, on connection: NATSConnection, replicas: Int) throws(NATSError) {
    self.layout = layout
    self.connection = connection
    var store: OpaquePointer?
    var status = js_KeyValue(&store, connection.jetStream, layout.bucket)
    if status == NATS_NOT_FOUND {
      var config = kvConfig()
      kvConfig_Init(&config)
      config.MaxValueSize = NATSBucketLimits.maximumValueBytes
      config.History = NATSBucketLimits.history
      config.MaxBytes = NATSBucketLimits.maximumBytes
      config.Replicas = Int32(replicas)
      config.StorageType = js_FileStorage
      status = layout.bucket.withCString { name in
        config.Bucket = name
        return js_CreateKeyValue(&store, connection.jetStream, &config)
      }
      if status != NATS_OK {
        // Another device may have created it meanwhile.
        let creation = NATSError(status, doing: "creating the bucket \(layout.bucket)")
        status = js_KeyValue(&store, connection.jetStream, layout.bucket)
        if status != NATS_OK { throw creation }
      }
    }
    try NATSError.check(status, doing: "opening the bucket \(layout.bucket)")
    self.store = store!
    do {
      created = try Self.streamState(layout, on: connection).created
    } catch {
      kvStore_Destroy(store)
      throw error
    }
  }

  /// The highest revision written to the bucket so far.
  ///
  /// - Throws: ``NATSError`` when the servers do not answer or refuse.
  func lastRevision() throws(NATSError) -> UInt64 {
    try Self.streamState(layout, on: connection).lastRevision
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
      doing: "reading the bucket \(layout.bucket)")
    defer { jsStreamInfo_Destroy(info) }
    return (info?.pointee.Created ?? 0, info?.pointee.State.LastSeq ?? 0)
  }

  deinit {
    kvStore_Destroy(store)
  }

  /// Every key's latest entry (skipping entries that are not valid records, with one diagnostic),
  /// and the highest revision read.
  ///
  /// - Throws: ``NATSError`` when the servers do not answer or refuse.
  func readAll() throws(NATSError) -> (entries: [String: Entry], revision: UInt64) {
    var options = kvWatchOptions()
    kvWatchOptions_Init(&options)
    options.Timeout = connection.timeoutMilliseconds
    var watcher: OpaquePointer?
    try NATSError.check(
      kvStore_WatchAll(&watcher, store, &options), doing: "reading the bucket \(layout.bucket)")
    defer { kvWatcher_Destroy(watcher) }
    var encoded: [(key: String, bytes: Data)] = []
    var revisions: [String: UInt64] = [:]
    var highest: UInt64 = 0
    while true {
      var entry: OpaquePointer?
      try NATSError.check(
        kvWatcher_Next(&entry, watcher, connection.timeoutMilliseconds),
        doing: "reading the bucket \(layout.bucket)")
      guard let entry else { break }
      defer { kvEntry_Destroy(entry) }
      let revision = kvEntry_Revision(entry)
      highest = max(highest, revision)
      guard kvEntry_Operation(entry) == kvOp_Put,
        let key = NATSKeyLayout.storeKey(String(cString: kvEntry_Key(entry)))
      else { continue }
      let bytes = Data(bytes: kvEntry_Value(entry), count: Int(kvEntry_ValueLen(entry)))
      encoded.append((key, bytes))
      revisions[key] = revision
    }
    let records = CloudRecordCodec.records(encoded) { "NATS key \(self.layout.bucket).\($0)" }
    let entries = records.reduce(into: [String: Entry]()) { entries, pair in
      entries[pair.key] = Entry(record: pair.value, revision: revisions[pair.key] ?? 0)
    }
    return (entries, highest)
  }

  /// How a write ended when the server did not store it.
  enum WriteRefusal: Error {
    /// The key's revision is no longer the expected one: another device wrote it.
    case conflict
    /// The bucket's bytes would exceed ``NATSBucketLimits/maximumBytes``.
    case full
    /// Another failure.
    case failed(NATSError)
  }

  /// Writes `bytes` to `key` only if its latest revision is still `revision` (0: only if the
  /// key has none), tagging the message with `header` (name → value).
  ///
  /// - Returns: The new revision.
  /// - Throws: ``WriteRefusal``.
  func write(_ bytes: Data, to key: String, ifRevision revision: UInt64, header: [String: String])
    throws(WriteRefusal) -> UInt64
  {
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
    if revision == 0 {
      options.ExpectNoMessage = true
    } else {
      options.ExpectLastSubjectSeq = revision
    }
    var acknowledgement: UnsafeMutablePointer<jsPubAck>?
    var code = jsErrCode(0)
    let published = js_PublishMsg(&acknowledgement, connection.jetStream, message, &options, &code)
    defer { jsPubAck_Destroy(acknowledgement) }
    guard published == NATS_OK else {
      let error = NATSError(published, code: code, doing: "writing \(layout.subject(key))")
      if code == JSStreamWrongLastSequenceErr { throw .conflict }
      if code == JSStreamStoreFailedErr, error.message.hasSuffix("maximum bytes exceeded") {
        throw .full
      }
      throw .failed(error)
    }
    return acknowledgement?.pointee.Sequence ?? 0
  }
}
