import Foundation
import TestSupport
import Testing

/// The NATS rows of the sync fault matrix in the long mode (``SyncFaultSoak``): the faults of
/// the short mode's tests, again and again with random timings, for
/// `SYNC_FAULT_MATRIX_MINUTES` minutes.
@Suite(.serialized) struct NATSFaultMatrixLongRunTests {
  @Test(.enabled(if: SyncFaultSoak.isRequested, "set SYNC_FAULT_MATRIX_MINUTES for the long mode"))
  func theMatrixRepeatedWithRandomTimings() async throws {
    let faults = NATSFaultTests()
    let states = NATSConnectionStateTests()
    let truth = NATSTruthfulStateTests()
    var all: [(name: String, test: () async throws -> Void)] = [
      (
        "the server in use killed",
        faults.aServerKilledWithSignal9TheDeviceContinuesOnAnotherNothingLostOrTwice
      ),
      ("quorum lost and regained", faults.quorumLostThenRegainedDeliversThePendingWrites),
      (
        "every server frozen",
        states.aDeviceThatWritesNothingSeesItsStoppedServersGoOfflineAndComeBack
      ),
      (
        "credentials refused at launch",
        { try await states.credentialsRefusedAreRefusedUntilTheServerAcceptsThem(atLaunch: true) }
      ),
      (
        "credentials refused later",
        { try await states.credentialsRefusedAreRefusedUntilTheServerAcceptsThem(atLaunch: false) }
      ),
      (
        "restarted while its server is down",
        NATSOfflineJournalTests()
          .aDeviceRestartedWhileItsServerIsDownPushesItsJournalOnceTheServerIsBack
      ),
      (
        "the bucket deleted and made again",
        {
          try await (try NATSBucketRemadeTests())
            .runningDevicesWriteTheirRecordsAndPendingWritesToTheBucketMadeAgain()
        }
      ),
      (
        "a record over the quota planted",
        truth.anotherClientsRecordOverTheQuotaIsRefusedAndBlocksNoWriteOfOtherKeys
      ),
      (
        "a single server, 3 replicas",
        truth.aBucketOf3ReplicasOnASingleServerIsAnUnusableConfigurationNeverConnected
      ),
    ]
    if NetworkNamespace.isAvailable {
      all.append(
        (
          "the device partitioned",
          states.aDevicePartitionedFromItsServerIsOfflineAndSyncsOnceTheNetworkHeals
        ))
    }
    await SyncFaultSoak().run("NATS", all)
  }
}
