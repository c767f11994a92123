import Foundation
internal import ObservableDefaultsSchema

extension SettingsSchema {
  /// The schema of a settings class as an object of it uses it, or `nil` when its store is not
  /// one other programs can open by name: a suite outside the preferences folder, a Foundation
  /// `UserDefaults`, an in-memory or otherwise private cloud store.
  ///
  /// - Parameters:
  ///   - properties: The class's property table (`_$settingsProperties`).
  ///   - object: An object of the class: the defaults are read from it.
  init?<Object>(
    properties: [SettingsProperty<Object>], of object: Object,
    store: any ObservableKeyValueStore, prefix: String, program: Program
  ) {
    guard let target = Self.store(of: store) else { return nil }
    let name = nameOfType(Object.self, qualified: true)
    let dot = name.firstIndex(of: ".") ?? name.startIndex
    self.init(
      program: program, module: String(name[..<dot]),
      className: String(name[name.index(dot, offsetBy: dot == name.startIndex ? 0 : 1)...]),
      store: target, prefix: prefix,
      schemaVersion: (Object.self as? any VersionedSettings.Type)?.migrations.version,
      keys: properties.compactMap { $0.schemaKey(object) })
  }

  /// The suite or cloud container `store` is known by to other programs, if any.
  static func store(of store: any ObservableKeyValueStore) -> Store? {
    if let cloud = store as? NSUbiquitousKeyValueStore {
      return CloudDefaultBackend.isDefault(cloud.backend)
        ? .cloud(container: CloudContainerDirectory.defaultContainer) : nil
    }
    return SettingsStoreInfo(kind: .userDefaults, store: store, prefix: "").suiteName.map(
      Store.suite)
  }
}

extension SettingsSchema.Program {
  /// This process: its name, its executable (`/proc/self/exe`) and when that was built (its
  /// modification time, in whole seconds, as an XML schema file keeps dates).
  static let current: Self = {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? Bundle.main.executablePath
    let build = executable.flatMap {
      ((try? FileManager.default.attributesOfItem(atPath: $0))?[.modificationDate] as? Date)
        .map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
    }
    return Self(
      name: ProcessInfo.processInfo.processName, executable: executable, build: build)
  }()
}
