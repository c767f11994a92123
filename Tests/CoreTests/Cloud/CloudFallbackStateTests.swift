import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// A shared store whose configured engine cannot be used at launch (its servers refused the
/// credentials, a TLS file is unusable) runs on the embedded container, and its state says so:
/// never a plain `connected`.
@Suite struct CloudFallbackStateTests {
  struct Refused: Error, CustomStringConvertible {
    var description: String { "the servers refused the credentials" }
  }

  @Test func aDeviceThatFellBackNamesTheEngineAndWhy() {
    // Names no engine for any other container, so other tests' stores are not affected.
    CloudEngines.register(
      CloudEngine(name: "refusing-test-engine") { container in
        guard container == "fallback-test" else { return nil }
        throw Refused()
      })
    let backend = CloudDefaultBackend.configured(container: "fallback-test")
    let status = backend.syncStatus
    #expect(status.backend == "embedded")
    #expect(status.fallback == "refusing-test-engine: the servers refused the credentials")
    #expect(
      status.summary
        == "connecting, fallback from refusing-test-engine: the servers refused the credentials")
  }

  @Test func aDeviceOnItsConfiguredBackendHasNoFallback() throws {
    let folder = try TemporaryFolder(prefix: "fallback-none")
    defer { folder.remove() }
    let store = NSUbiquitousKeyValueStore(
      backend: EmbeddedCloudBackend(root: folder.url, container: "c"))
    #expect(store.syncStatus.fallback == nil)
    #expect(store.syncStatus.summary == "synced")
  }
}
