import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// A settings object on a suite with system-wide defaults and mandatory values (a temporary
/// folder stands for `/etc/xdg`): the properties read the layers, a mandatory one keeps its
/// value, and a change of the system files tells only the properties whose value changed.
@Suite struct SystemDefaultsSettingsTests {
  let suite = TemporarySuite()
  let system: TemporaryFolder
  let name = "com.example.tests"

  init() throws {
    system = try TemporaryFolder()
  }

  private func administrator(_ values: [String: Any], mandatory: Bool = false) throws {
    try SystemConfigFolder(system.url).write(values, suite: name, mandatory: mandatory)
  }

  private func store() -> PropertyListDefaults {
    PropertyListDefaults(fileURL: suite.fileURL, suite: name, systemFolders: [system.url])
  }

  @Test func propertiesReadTheLayersAndAMandatoryOneKeepsItsValue() throws {
    try administrator(["name": "Admin"], mandatory: true)
    try administrator(["name": "Shipped", "age": 30])
    let store = store()
    let settings = Settings(userDefaults: store)
    #expect(settings.name == "Admin")
    #expect(settings.age == 30)
    #expect(settings.nickname == nil)

    let name = ChangeCounter(settings, \.name)
    settings.name = "Me"
    #expect(settings.name == "Admin")
    #expect(name.count == 0)
    #expect(store.lastError?.kind == .mandatory(key: "name"))
    #expect(store.lastError?.file == system.file("ObservableDefaults/mandatory/\(self.name).plist"))
    settings.age = 41
    #expect(settings.age == 41)
    try store.flush()
    #expect(try suite.fileValues() as NSDictionary == ["age": 41])
    #expect(Settings(userDefaults: self.store()).name == "Admin")
  }

  @Test func aChangedSystemFileTellsOnlyThePropertiesWhoseValueChanged() async throws {
    try administrator(["age": 30, "nickname": "bob"])
    let settings = Settings(userDefaults: store())
    let (name, age, nickname) = (
      ChangeCounter(settings, \.name), ChangeCounter(settings, \.age),
      ChangeCounter(settings, \.nickname)
    )
    let counts = { [name.count, age.count, nickname.count] as [Int] }
    try administrator(["age": 31, "nickname": "bob", "other": 1])
    try administrator(["name": "Admin"], mandatory: true)
    #expect(await poll { settings.age == 31 && settings.name == "Admin" })
    #expect(counts() == [1, 1, 0])
    // The same values again, and a key no property has: nobody is told. The files are read
    // again in the order they changed, so once the lock's removal is seen, these were too.
    try administrator(["age": 31, "nickname": "bob", "other": 2])
    try administrator(["name": "Admin", "unrelated": true], mandatory: true)
    settings.age = 50
    #expect(settings.age == 50)
    try FileManager.default.removeItem(at: system.file("ObservableDefaults"))
    #expect(await poll { settings.name == "Fatbobman" })
    #expect(counts() == [2, 2, 0])
  }
}
