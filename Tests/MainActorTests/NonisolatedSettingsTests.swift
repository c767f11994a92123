import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// A class an app opts out of the module's main-actor default with `nonisolated`, as Apple's
/// `@Observable` allows: it compiles, and its conformances are not main-actor isolated.
@ObservableDefaults
nonisolated final class NonisolatedSettings {
  var name: String = "Fatbobman"
}

@ObservableCloud(developmentMode: true)
nonisolated final class NonisolatedCloudSettings {
  var theme: String = "light"
}

/// Takes any observable type's metatype off the main actor (a `SendableMetatype` requirement,
/// which an isolated conformance cannot satisfy).
nonisolated func observableTypeName<T: Observable>(_ type: T.Type) -> String {
  String(describing: type)
}

@Suite struct NonisolatedSettingsTests {
  @Test nonisolated func aNonisolatedClassPersistsFromAnyThread() async throws {
    let folder = try TemporaryFolder()
    let store = PropertyListDefaults(fileURL: folder.file("nonisolated.plist"))
    let settings = NonisolatedSettings(userDefaults: store)
    settings.name = "Any thread"
    try store.flush()
    #expect(PropertyListDefaults(fileURL: store.fileURL).string(forKey: "name") == "Any thread")
    #expect(observableTypeName(NonisolatedSettings.self) == "NonisolatedSettings")
    #expect(observableTypeName(NonisolatedCloudSettings.self) == "NonisolatedCloudSettings")
    #expect(NonisolatedCloudSettings().theme == "light")
  }
}
