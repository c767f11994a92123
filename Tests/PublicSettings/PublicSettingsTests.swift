import Foundation
import ObservableDefaults
import Synchronization
import TestSupport
import Testing

/// The public classes of a module built with InternalImportsByDefault work as any other.
@Suite struct PublicSettingsTests {
  @Test func aPublicDefaultsClassStoresAndNotifies() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("public.plist")
      let settings = PublicDefaultsSettings(userDefaults: PropertyListDefaults(fileURL: url))
      #expect(notifies(settings, \.name) { settings.name = "Ann" })
      settings.count = 3
      let other = PropertyListDefaults(fileURL: url)
      #expect(other.string(forKey: "public_name") == "Ann")
      #expect(other.integer(forKey: "public_user-count") == 3)
      let manual = PublicManualSettings(userDefaults: PropertyListDefaults(fileURL: url))
      manual.volume = 0.75
      #expect(other.double(forKey: "volume") == 0.75)
      try other.flush()  // before the folder goes
    }
  }

  @Test func aPublicCloudClassKeepsItsValues() {
    let settings = PublicCloudSettings()
    #expect(notifies(settings, \.theme) { settings.theme = "dark" })
    settings.count = 2
    #expect(settings.theme == "dark")
    #expect(settings.count == 2)
    let manual = PublicManualCloudSettings()
    manual.volume = 1
    #expect(manual.volume == 1)
  }

  /// Whether Observation tells a reader of `keyPath` of the change `change` makes.
  func notifies<Object: Observable, Value>(
    _ object: Object, _ keyPath: KeyPath<Object, Value>, when change: () -> Void
  ) -> Bool {
    let told = Atomic(false)
    withObservationTracking {
      _ = object[keyPath: keyPath]
    } onChange: {
      told.store(true, ordering: .relaxed)
    }
    change()
    return told.load(ordering: .relaxed)
  }
}
