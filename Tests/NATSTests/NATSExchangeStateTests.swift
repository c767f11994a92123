import ObservableDefaultsCore
import Testing

@testable import ObservableDefaultsNATS

/// What a device's state says after an exchange, a delivery, or a close libnats gives no reason
/// for.
@Suite struct NATSExchangeStateTests {
  static let refusal = NATSError(
    kind: .permissionDenied,
    message: "connecting to nats://127.0.0.1:4222: Authorization Violation")

  /// A refused device whose connection libnats then closes without a reason stays refused with
  /// the server's reason: the close says nothing new (the credentials test read the close's
  /// note instead of "Authorization Violation" in 1 of 2 runs).
  @Test func aCloseWithoutReasonKeepsTheRefusalsReason() {
    var state = NATSExchangeState()
    state.failed(Self.refusal)
    state.closedWithoutReason("libnats closed the connection to nats://127.0.0.1:4222")
    #expect(state.lastError == "\(Self.refusal)")
    #expect(state.connection(socket: .offline) == .refused)
  }

  /// Without a refusal, a close without a reason makes the device offline, naming the close.
  @Test func aCloseWithoutReasonAfterASuccessIsOffline() {
    var state = NATSExchangeState()
    state.succeeded()
    state.closedWithoutReason("libnats closed the connection to nats://127.0.0.1:4222")
    #expect(state.lastError == "nats: libnats closed the connection to nats://127.0.0.1:4222")
    #expect(state.connection(socket: .connected) == .offline)
    #expect(!state.reachedQuorum)
  }

  /// An answered JetStream request reached a quorum (`synced` with nothing pending); a watch
  /// delivery after a failure proves nothing (a server without quorum can redeliver records):
  /// the device stays offline with the failure until its next exchange.
  @Test func anAnsweredRequestReachesAQuorumAWatchDeliveryDoesNot() {
    var state = NATSExchangeState()
    state.delivered()
    #expect(state.connection(socket: .connected) == .connected)
    #expect(!state.reachedQuorum)
    state.succeeded()
    #expect(state.reachedQuorum)
    state.failed(NATSError(kind: .unreachable, message: "No responders"))
    state.delivered()
    #expect(state.connection(socket: .connected) == .offline)
    #expect(state.lastError == "nats: No responders")
    #expect(!state.reachedQuorum)
    state.succeeded()
    #expect(state.connection(socket: .connected) == .connected)
  }
}
