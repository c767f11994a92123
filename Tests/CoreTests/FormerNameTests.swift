import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Names the package had before, kept as deprecated aliases so that apps written against them
/// compile unchanged. Each test is deprecated itself: it uses the former names on purpose, and the
/// build stays free of warnings.
@Suite struct FormerNameTests {
  @available(*, deprecated, message: "uses the former names on purpose")
  @Test func defaultsObservationStillNamesTheObservationToken() async throws {
    #expect(ObjectIdentifier(DefaultsObservation.self) == ObjectIdentifier(ObservationToken.self))
    try await withTemporaryFolder { folder in
      let defaults = PropertyListDefaults(fileURL: folder.file("former.plist"))
      let log = DefaultsChangeLog()
      let observation: DefaultsObservation = defaults.observe(log.handler)
      defaults.set("Fatbobman", forKey: "name")
      observation.cancel()
      defaults.set("other", forKey: "name")
      #expect(log.all == [DefaultsChange(keys: ["name"], origin: .thisProcess)])
    }
  }
}
