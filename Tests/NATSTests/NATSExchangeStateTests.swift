import ObservableDefaultsCore
import Testing

@testable import ObservableDefaultsNATS

/// What a device's state says after an exchange or a delivery.
@Suite struct NATSExchangeStateTests {
  /// An answered JetStream request reached a quorum (`synced` with nothing pending); a watch
  /// delivery after a failure proves a server answers (`connected`), not a quorum.
  @Test func anAnsweredRequestReachesAQuorumAWatchDeliveryDoesNot() {
    var state = NATSExchangeState()
    state.succeeded()
    #expect(state.reachedQuorum)
    state.failed(NATSError(kind: .unreachable, message: "No responders"))
    state.delivered()
    #expect(state.connection(socket: .connected) == .connected)
    #expect(!state.reachedQuorum)
  }
}
