import CNATS
import Foundation
import ObservableDefaultsCore

/// One device's connection to a NATS cluster and its JetStream context.
///
/// libnats keeps the connection up on its own: it tries the servers in a random order (also when none
/// answers at creation), reconnects after a failure, and resends subscriptions — until it closes
/// the connection for good, which it does when a server refuses the credentials twice in a row
/// while reconnecting, and when its background first connection fails (measured with a server
/// that refused the credentials and with one stopped by SIGSTOP). Its state changes arrive
/// through ``NATSCallbacks`` on libnats' threads and are kept here for ``CloudSyncStatus``; the
/// owner learns of the closing through ``whenClosed(_:)`` and makes a new connection.
final class NATSConnection: @unchecked Sendable {
  /// Whether the connection is up, and the server in use.
  struct State: Sendable {
    var connection = CloudSyncStatus.Connection.connecting
    var server: String?
  }

  let connection: OpaquePointer
  let jetStream: OpaquePointer
  /// Milliseconds one attempt of a JetStream request (a publish, a read) may take: a third of
  /// the configuration's request timeout, at least 0.5 s, so that
  /// ``retryingWhileLeaderless(_:)`` can try again within it.
  let timeoutMilliseconds: Int64
  /// Seconds a request may take, its attempts together.
  let requestTimeout: TimeInterval
  /// The servers, for messages (without credentials).
  private let serverList: String
  private let options: OpaquePointer
  private let events = Events()
  private let closure: UnsafeMutableRawPointer

  /// Connects (in the background when no server answers yet).
  ///
  /// - Throws: ``NATSError``: `.libraryMissing` when libnats cannot be loaded; for options
  ///   libnats refuses (an unreadable CA file or client certificate, a malformed server URL, an
  ///   unreadable credentials file).
  init(_ configuration: NATSConfiguration) throws(NATSError) {
    if let failure = NATSLibrary.loadingFailure {
      throw NATSError(kind: .libraryMissing, message: failure)
    }
    var options: OpaquePointer?
    try NATSError.check(natsOptions_Create(&options), doing: "creating the connection options")
    guard let options else { throw NATSError(kind: .refused(code: 0), message: "no options") }
    self.options = options
    requestTimeout = configuration.requestTimeout
    timeoutMilliseconds = max(500, Int64(configuration.requestTimeout * 1000 / 3))
    serverList = configuration.serverList
    var connection: OpaquePointer?
    let closure = NATSCallbacks.register(events)
    do throws(NATSError) {
      try Self.apply(configuration, to: options, closure: closure)
      // A first attempt tells refused credentials at once; when no server answers (none
      // listening, or one that accepts and then says nothing, as a stopped process), libnats
      // connects in the background.
      var status = natsConnection_Connect(&connection, options)
      if status == NATS_CONNECTION_AUTH_FAILED, configuration.credentials?.signsNonce == true {
        // libnats before 3.8 sends no signature when the NKey's signature of the server's nonce
        // starts with a zero byte (1 connection in 256; nats-io/nats.c#705, in Debian's 3.4.1),
        // and the server refuses it; another connection signs another nonce.
        status = natsConnection_Connect(&connection, options)
      }
      if status == NATS_NO_SERVER || status == NATS_TIMEOUT {
        try NATSError.check(
          natsOptions_SetRetryOnFailedConnect(options, true, Self.changed, closure),
          doing: "retrying the first connection")
        status = natsConnection_Connect(&connection, options)
        if status == NATS_NOT_YET_CONNECTED { status = NATS_OK }
      }
      if status != NATS_OK {
        throw NATSError.connecting(
          status, to: configuration, secure: Self.isSecure(configuration))
      }
      guard let connection else {
        throw NATSError(kind: .unreachable, message: "connecting: no connection")
      }
      var jetStream: OpaquePointer?
      var jsOptions = jsOptions()
      jsOptions_Init(&jsOptions)
      jsOptions.Wait = timeoutMilliseconds
      try NATSError.check(
        natsConnection_JetStream(&jetStream, connection, &jsOptions), doing: "opening JetStream")
      self.connection = connection
      self.jetStream = jetStream!
      events.watch(connection)
    } catch {
      NATSCallbacks.unregister(closure)
      natsConnection_Destroy(connection)
      natsOptions_Destroy(options)
      throw error
    }
    self.closure = closure
  }

  deinit {
    NATSCallbacks.unregister(closure)
    jsCtx_Destroy(jetStream)
    natsConnection_Destroy(connection)
    natsOptions_Destroy(options)
  }

  /// Whether the connection is up, and the server in use (its URL without credentials).
  var current: State { events.current }

  /// Calls `handler` once libnats closes the connection for good: on libnats' thread, or at once
  /// when it is closed already. The handler must not destroy the connection from there.
  func whenClosed(_ handler: @escaping @Sendable () -> Void) {
    events.whenClosed(handler)
  }

  /// Calls `handler` each time libnats connects after a time without a server (its background
  /// first connection, a reconnection), on libnats' thread. The handler must not destroy the
  /// connection from there.
  func whenConnected(_ handler: @escaping @Sendable () -> Void) {
    events.whenConnected(handler)
  }

  /// Why the connection is closed for good (libnats gives up after the servers refused the
  /// credentials), or nil while it is open or reconnecting.
  func closedError() -> NATSError? {
    guard natsConnection_IsClosed(connection) else { return nil }
    var text: UnsafePointer<CChar>?
    let status = natsConnection_GetLastError(connection, &text)
    let reason = text.map { String(cString: $0) } ?? String(cString: natsStatus_GetText(status))
    return NATSError(
      kind: status == NATS_CONNECTION_AUTH_FAILED ? .permissionDenied : .unreachable,
      message: "connecting to \(serverList): \(reason)")
  }

  /// Runs `attempt` until it succeeds, fails otherwise than `.unreachable`, or
  /// ``requestTimeout`` has passed. JetStream answers nobody while a stream or the cluster
  /// elects a leader (just after a bucket is created, after the leader's server was lost) and
  /// while libnats reconnects to another server, which libnats reports as no responders, a
  /// timeout or a disconnection. Writes are retried safely: they are compare-and-set, so a write
  /// that landed although its acknowledgement was lost is refused as a conflict the next time.
  func retryingWhileLeaderless<T>(_ attempt: () throws(NATSError) -> T) throws(NATSError) -> T {
    let deadline = Date().addingTimeInterval(requestTimeout)
    var delay = 0.05
    while true {
      do {
        return try attempt()
      } catch {
        if let closed = closedError() { throw closed }
        guard error.kind == .unreachable, Date().addingTimeInterval(delay) < deadline else {
          throw error
        }
        Thread.sleep(forTimeInterval: delay)
        delay = min(delay * 2, 0.5)
      }
    }
  }

  /// The connection's state, updated by libnats' callbacks (registered in ``NATSCallbacks``).
  private final class Events: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var connection: OpaquePointer?
    private var state = State()
    private var closed = false
    private var closedHandler: (@Sendable () -> Void)?
    /// Whether the last callback found the connection up.
    private var wasConnected = false
    private var connectedHandler: (@Sendable () -> Void)?

    /// The state now: read from libnats, not only from its last callback (which runs on
    /// libnats' thread, and under load after requests through the new server succeeded).
    var current: State {
      lock.withLock {
        if let connection { _ = Self.read(connection, into: &state) }
        return state
      }
    }

    /// Starts reading `connection`'s state.
    func watch(_ connection: OpaquePointer) {
      lock.withLock { self.connection = connection }
      noteChange()
    }

    /// Calls `handler` once the connection is closed (at once when it is).
    func whenClosed(_ handler: @escaping @Sendable () -> Void) {
      let closedAlready = lock.withLock {
        closedHandler = handler
        return closed
      }
      if closedAlready { notifyClosed() }
    }

    /// Calls `handler` at each connection after a time without one.
    func whenConnected(_ handler: @escaping @Sendable () -> Void) {
      lock.withLock { connectedHandler = handler }
    }

    /// Calls the closed handler, once.
    private func notifyClosed() {
      let handler = lock.withLock {
        defer { closedHandler = nil }
        return closedHandler
      }
      handler?()
    }

    /// Reads the connection's status after a libnats callback.
    func noteChange() {
      let (closedNow, connectedNow) = lock.withLock { () -> (Bool, (@Sendable () -> Void)?) in
        guard let connection else { return (false, nil) }
        let isClosed = Self.read(connection, into: &state)
        let isConnected = state.connection == .connected
        defer { (closed, wasConnected) = (closed || isClosed, isConnected) }
        return (isClosed && !closed, isConnected && !wasConnected ? connectedHandler : nil)
      }
      if closedNow { notifyClosed() }
      connectedNow?()
    }

    /// Reads `connection`'s server and status into `state`.
    ///
    /// - Returns: Whether libnats closed the connection for good.
    private static func read(_ connection: OpaquePointer, into state: inout State) -> Bool {
      var buffer = [CChar](repeating: 0, count: 256)
      if natsConnection_GetConnectedUrl(connection, &buffer, buffer.count) == NATS_OK,
        buffer[0] != 0
      {
        let url = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        state.server = NATSConfiguration.withoutUserInfo(String(decoding: url, as: UTF8.self))
      }
      switch natsConnection_Status(connection) {
      case NATS_CONN_STATUS_CONNECTED: state.connection = .connected
      case NATS_CONN_STATUS_CONNECTING: state.connection = .connecting
      case NATS_CONN_STATUS_CLOSED:
        state.connection = .offline
        return true
      default: state.connection = .offline
      }
      return false
    }
  }

  /// Sets servers, credentials, TLS, time limits and reconnection on `options`.
  private static func apply(
    _ configuration: NATSConfiguration, to options: OpaquePointer, closure: UnsafeMutableRawPointer
  ) throws(NATSError) {
    let servers = configuration.servers.map { strdup($0) }
    defer { for server in servers { free(server) } }
    var pointers = servers.map { UnsafePointer<CChar>($0) }
    try NATSError.check(
      natsOptions_SetServers(options, &pointers, Int32(pointers.count)),
      doing: "setting the servers \(configuration.serverList)")
    try configuration.credentials?.apply(to: options)
    let tls = configuration.tls
    if isSecure(configuration) {
      try NATSError.check(natsOptions_SetSecure(options, true), doing: "enabling TLS")
    }
    if let caFile = tls.caFile {
      try NATSError.check(
        natsOptions_LoadCATrustedCertificates(options, caFile),
        doing: "loading the CA file \(caFile)")
    }
    if let certificate = tls.certificateFile {
      try NATSError.check(
        natsOptions_LoadCertificatesChain(options, certificate, tls.keyFile ?? certificate),
        doing: "loading the client certificate \(certificate)")
    }
    let timeout = Int64(configuration.requestTimeout * 1000)
    try NATSError.check(natsOptions_SetTimeout(options, timeout), doing: "setting the timeout")
    try NATSError.check(natsOptions_SetName(options, "ObservableDefaults"), doing: "naming")
    try NATSError.check(natsOptions_SetMaxReconnect(options, -1), doing: "reconnecting")
    try NATSError.check(natsOptions_SetReconnectWait(options, 100), doing: "reconnecting")
    try NATSError.check(natsOptions_SetPingInterval(options, 2000), doing: "setting pings")
    try NATSError.check(natsOptions_SetMaxPingsOut(options, 2), doing: "setting pings")
    try NATSError.check(
      natsOptions_SetDisconnectedCB(options, Self.changed, closure),
      doing: "watching the connection")
    try NATSError.check(
      natsOptions_SetReconnectedCB(options, Self.changed, closure), doing: "watching the connection"
    )
    try NATSError.check(
      natsOptions_SetClosedCB(options, Self.changed, closure), doing: "watching the connection")
  }

  /// Whether the device connects with TLS: a CA file, a client certificate or a `tls://` server.
  private static func isSecure(_ configuration: NATSConfiguration) -> Bool {
    configuration.tls.caFile != nil || configuration.tls.certificateFile != nil
      || configuration.servers.contains { $0.hasPrefix("tls://") }
  }

  /// libnats' callback for every change of the connection's state.
  private static let changed: natsConnectionHandler = { _, closure in
    NATSCallbacks.object(closure, as: Events.self)?.noteChange()
  }

}

/// libnats' process-wide state, opened once.
enum NATSLibrary {
  /// Loads libnats and opens it (its threads and timers) the first time it is read: nil, or why
  /// libnats cannot be loaded, naming the package to install.
  static let loadingFailure: String? = {
    if let failure = cnats_load() { return String(cString: failure) }
    _ = nats_Open(-1)
    return nil
  }()
}
