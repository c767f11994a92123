import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// A watch whose consumer stays silent subscribes again once it is told, for
/// ``NATSWatch/stallLimit``, that the bucket is ahead of it. Under load, one subscription of a
/// test run's 2,337 received nothing for minutes, libnats noticing nothing: the device whose
/// copy it fed stayed `offline, 20 pending`, and a device whose watch it was stayed `synced`
/// without another device's write. Here the subscription is ended behind the watch's back
/// (``NATSWatch/dropSubscription()``), which the watch cannot tell from a silent one.
@Suite struct NATSSilentWatchTests {
  let configuration: NATSConfiguration

  init() async throws {
    configuration = try await NATSTestCluster.shared()
      .configuration(container: freshNATSContainer())
  }

  func record(_ value: String, at time: Int64) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: "d"))
  }

  @Test func aCopyWhoseWatchWentSilentSubscribesAgainAndCatchesUp() async throws {
    let mirror = try NATSBucketCopy(configuration).mirror
    let before = try mirror.contents(within: 30)
    let watch = try #require(mirror.watch)
    // Its first deliveries may come before the subscription is kept.
    #expect(await poll { watch.subscriptionCount == 1 })

    watch.dropSubscription()
    try NATSCloudBackend(configuration: configuration).save(["other": record("o", at: 7)])
    // The read waits for its copy, telling the watch each second that it is behind.
    let after = try mirror.contents(within: 30)
    #expect(after.revision == before.revision + 1)
    #expect(after.entries["other"]?.record?.value as? String == "o")
    #expect(await poll { watch.subscriptionCount == 2 })
  }

  @Test func aDeviceWhoseWatchWentSilentHearsTheNextWriteAfterItsProbes() async throws {
    let writer = NSUbiquitousKeyValueStore(
      backend: try NATSCloudBackend(configuration: configuration))
    let backend = try NATSCloudBackend(configuration: configuration)
    let reader = NSUbiquitousKeyValueStore(backend: backend)
    writer.set("one", forKey: "k")
    #expect(writer.synchronize())
    #expect(await poll(within: .seconds(60)) { reader.string(forKey: "k") == "one" })
    let watches = backend.state.withLock { $0.device.watches }
    #expect(await poll { watches.map(\.subscriptionCount) == [1] })

    for watch in watches { watch.dropSubscription() }
    writer.set("two", forKey: "k")
    #expect(writer.synchronize())
    // Two probes (every 5 s) tell the watch that the bucket is ahead of it.
    #expect(await poll(within: .seconds(60)) { reader.string(forKey: "k") == "two" })
    #expect(await poll { watches.map(\.subscriptionCount) == [2] })
  }
}
