import CNATS
import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS

/// A raw libnats connection as one user of the test cluster, for what the library never does:
/// planting bytes, and attacks with one account's credentials on another's bucket.
final class NATSTestClient: @unchecked Sendable {
  /// A libnats call that failed: its status, JetStream error code and last error text.
  struct Failure: Error, Equatable, CustomStringConvertible {
    let status: natsStatus
    let code: Int
    let text: String

    var description: String { "\(String(cString: natsStatus_GetText(status))) (\(code)): \(text)" }
  }

  let connection: OpaquePointer
  let jetStream: OpaquePointer

  /// Connects as `user` (or as the user of the `.creds` file `credsFile` when given), with TLS
  /// when `tls` is given, expecting `expectedHostname` in the server's certificate (the URL's
  /// host when nil).
  init(
    url: String, user: NATSTestCluster.User, credsFile: String? = nil,
    tls: CloudTLSFiles? = nil, expectedHostname: String? = nil
  ) throws {
    var options: OpaquePointer?
    try Self.check(natsOptions_Create(&options))
    defer { natsOptions_Destroy(options) }
    try Self.check(natsOptions_SetURL(options, url))
    if let credsFile {
      try Self.check(natsOptions_SetUserCredentialsFromFiles(options, credsFile, nil))
    } else {
      try Self.check(natsOptions_SetUserInfo(options, user.name, user.password))
    }
    try Self.check(natsOptions_SetTimeout(options, 2000))
    if let tls {
      try Self.check(natsOptions_SetSecure(options, true))
      if let expectedHostname {
        try Self.check(natsOptions_SetExpectedHostname(options, expectedHostname))
      }
      if let ca = tls.caFile { try Self.check(natsOptions_LoadCATrustedCertificates(options, ca)) }
      if let certificate = tls.certificateFile {
        try Self.check(
          natsOptions_LoadCertificatesChain(options, certificate, tls.keyFile ?? certificate))
      }
    }
    var connection: OpaquePointer?
    try Self.check(natsConnection_Connect(&connection, options))
    var jetStream: OpaquePointer?
    var jsOptions = jsOptions()
    jsOptions_Init(&jsOptions)
    jsOptions.Wait = Self.timeout
    try Self.check(natsConnection_JetStream(&jetStream, connection, &jsOptions))
    self.connection = connection!
    self.jetStream = jetStream!
  }

  deinit {
    jsCtx_Destroy(jetStream)
    natsConnection_Destroy(connection)
  }

  /// Throws the ``Failure`` of `status` unless it is `NATS_OK`.
  static func check(_ status: natsStatus, code: jsErrCode = jsErrCode(0)) throws {
    guard status != NATS_OK else { return }
    var lastStatus = NATS_OK
    let last = nats_GetLastError(&lastStatus).map { String(cString: $0) } ?? ""
    let text = lastStatus == status ? last : ""
    let start = text.range(of: "): ")?.upperBound ?? text.startIndex
    throw Failure(status: status, code: Int(code.rawValue), text: String(text[start...]))
  }

  /// The account's JetStream information (fails until the cluster has a JetStream leader).
  func accountInfo() throws {
    var info: UnsafeMutablePointer<jsAccountInfo>?
    var code = jsErrCode(0)
    try Self.check(js_GetAccountInfo(&info, jetStream, nil, &code), code: code)
    jsAccountInfo_Destroy(info)
  }

  /// Opens a bucket of this user's account.
  func bucket(_ name: String) throws -> OpaquePointer {
    var store: OpaquePointer?
    try Self.check(js_KeyValue(&store, jetStream, name))
    return store!
  }

  /// Reads the last message of `subject` in `stream` (JetStream's message get).
  func lastMessage(stream: String, subject: String) throws {
    var message: OpaquePointer?
    var code = jsErrCode(0)
    let status = js_GetLastMsg(&message, jetStream, stream, subject, nil, &code)
    natsMsg_Destroy(message)
    try Self.check(status, code: code)
  }

  /// Creates a bucket in this user's account with `maxBytes`.
  func createBucket(_ name: String, maxBytes: Int64 = -1) throws -> OpaquePointer {
    var config = kvConfig()
    kvConfig_Init(&config)
    config.MaxBytes = maxBytes
    config.Replicas = 3
    var store: OpaquePointer?
    let status = name.withCString { bucket in
      config.Bucket = bucket
      return js_CreateKeyValue(&store, jetStream, &config)
    }
    try Self.check(status)
    return store!
  }

  /// Puts `bytes` under the NATS key `key` of `store`, as any client of the account can.
  @discardableResult
  func put(_ bytes: Data, key: String, in store: OpaquePointer) throws -> UInt64 {
    var revision: UInt64 = 0
    let status = bytes.withUnsafeBytes { buffer in
      kvStore_Put(&revision, store, key, buffer.baseAddress, Int32(buffer.count))
    }
    try Self.check(status)
    return revision
  }

  /// Publishes `bytes` to `subject` through JetStream with `header` (name → value), waiting for
  /// a stream's acknowledgement.
  func publish(_ bytes: Data, to subject: String, header: [String: String] = [:]) throws {
    var message: OpaquePointer?
    try Self.check(
      bytes.withUnsafeBytes { buffer in
        natsMsg_Create(
          &message, subject, nil, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
          Int32(buffer.count))
      })
    defer { natsMsg_Destroy(message) }
    for (name, value) in header { try Self.check(natsMsgHeader_Set(message, name, value)) }
    var acknowledgement: UnsafeMutablePointer<jsPubAck>?
    var code = jsErrCode(0)
    let status = js_PublishMsg(&acknowledgement, jetStream, message, nil, &code)
    jsPubAck_Destroy(acknowledgement)
    try Self.check(status, code: code)
  }

  /// A JetStream API reply: its `Status` header (e.g. `404` for a direct get of no message) and
  /// its body as JSON (empty when it has none).
  struct Reply {
    let status: String?
    let body: [String: Any]

    /// The JetStream error, `<err_code> <description>`, or nil when the request succeeded.
    var error: String? {
      guard let error = body["error"] as? [String: Any] else { return nil }
      return "\(error["err_code"] ?? "") \(error["description"] ?? "")"
    }
  }

  /// How long the client waits for a reply (a JetStream call's or a request's): 30,000 ms. An
  /// operator's call is not what a test measures, and on a loaded machine deleting a stream of
  /// 3 replicas has taken longer than 3 s.
  static let timeout: Int64 = 30_000

  /// Sends `body` to `subject` (a `$JS.API.…` request) with core NATS and waits `timeout`
  /// milliseconds for the reply.
  func request(_ subject: String, _ body: String = "", timeout: Int64 = timeout) throws -> Reply {
    var reply: OpaquePointer?
    try Self.check(natsConnection_RequestString(&reply, connection, subject, body, timeout))
    defer { natsMsg_Destroy(reply) }
    var status: UnsafePointer<CChar>?
    let hasStatus = natsMsgHeader_Get(reply, "Status", &status) == NATS_OK
    let data = Data(bytes: natsMsg_GetData(reply), count: Int(natsMsg_GetDataLength(reply)))
    let json = data.isEmpty ? [:] : try JSONSerialization.jsonObject(with: data)
    return Reply(
      status: hasStatus ? status.map { String(cString: $0) } : nil,
      body: json as? [String: Any] ?? [:])
  }

  /// Subscribes to `subject` with core NATS (no JetStream); the subscription stays open until
  /// destroyed.
  func subscribe(_ subject: String) throws -> OpaquePointer {
    var subscription: OpaquePointer?
    try Self.check(natsConnection_SubscribeSync(&subscription, connection, subject))
    return subscription!
  }

  /// How many of the messages `subscription` received have a subject or data containing
  /// `text`, after a round trip to the server (so that everything the server sent before is
  /// there); reads them all.
  func received(_ subscription: OpaquePointer, containing text: String) throws -> Int {
    try Self.check(natsConnection_FlushTimeout(connection, Self.timeout))
    var count = 0
    while true {
      var message: OpaquePointer?
      guard natsSubscription_NextMsg(&message, subscription, 1) == NATS_OK else { return count }
      defer { natsMsg_Destroy(message) }
      let data = Data(
        bytes: natsMsg_GetData(message), count: Int(natsMsg_GetDataLength(message)))
      if String(cString: natsMsg_GetSubject(message)).contains(text)
        || data.range(of: Data(text.utf8)) != nil
      {
        count += 1
      }
    }
  }

  /// Subscribes to `subject` with an ordered JetStream consumer on `stream`.
  func watch(stream: String, subject: String) throws {
    var options = jsSubOptions()
    jsSubOptions_Init(&options)
    options.Ordered = true
    var subscription: OpaquePointer?
    var code = jsErrCode(0)
    let status = stream.withCString { name in
      options.Stream = name
      return js_SubscribeSync(&subscription, jetStream, subject, nil, &options, &code)
    }
    natsSubscription_Destroy(subscription)
    try Self.check(status, code: code)
  }
}
