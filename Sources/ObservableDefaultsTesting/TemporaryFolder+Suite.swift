public import ObservableDefaultsCore

extension TemporaryFolder {
  /// A suite kept in this folder (`<name>.plist`), for a settings object under test:
  ///
  /// ```swift
  /// try await withTemporaryFolder { folder in
  ///   let settings = Settings(userDefaults: folder.suite())
  ///   settings.name = "Ann"
  ///   #expect(folder.suite().string(forKey: "name") == "Ann")
  /// }
  /// ```
  ///
  /// Every `PropertyListDefaults` of one file in a process shares one domain, so a second call
  /// sees what the first one's writes put in memory; another process sees them once flushed
  /// (`synchronize()`).
  ///
  /// - Parameter name: The suite's name, `tests` by default.
  public func suite(_ name: String = "tests") -> PropertyListDefaults {
    PropertyListDefaults(fileURL: file(name + ".plist"))
  }
}
