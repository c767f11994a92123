import Foundation
import TestSupport
import Testing

/// The etcd rows of the sync fault matrix in the long mode (``SyncFaultSoak``): the faults of
/// ``EtcdFaultMatrixTests`` that a device lives through, again and again with random timings,
/// for `SYNC_FAULT_MATRIX_MINUTES` minutes. The rows of a program that exits and is launched
/// again are left to the short mode.
@Suite(.serialized) struct EtcdFaultMatrixLongRunTests {
  @Test(.enabled(if: SyncFaultSoak.isRequested, "set SYNC_FAULT_MATRIX_MINUTES for the long mode"))
  func theMatrixRepeatedWithRandomTimings() async throws {
    let matrix = EtcdFaultMatrixTests()
    var faults: [(name: String, test: () async throws -> Void)] = [
      ("a member killed", matrix.aMemberKilled),
      ("the whole cluster killed", matrix.theWholeClusterKilled),
      ("every member frozen", matrix.theWholeClusterFrozen),
      ("quorum lost and regained", matrix.quorumLostAndRegained),
      ("the key prefix deleted and made again", matrix.theKeyPrefixDeletedAndMadeAgain),
      ("an over-quota record planted", matrix.anOverQuotaRecordPlantedByAnotherClient),
      ("credentials refused at launch", matrix.credentialsRefusedAtLaunch),
      ("a permission revoked while running", matrix.credentialsRefusedLater),
    ]
    if NetworkNamespace.isAvailable {
      faults.append(("the device partitioned", matrix.theDevicePartitionedFromTheCluster))
    }
    await SyncFaultSoak().run("etcd", faults)
  }
}
