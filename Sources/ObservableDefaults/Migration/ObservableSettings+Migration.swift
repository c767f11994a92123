import Foundation

extension ObservableSettings {
  /// Stores every persisted property's value under its key in its current form: values found
  /// under previous keys are moved (the previous keys removed), values stored in an earlier
  /// version's form (`convertingFrom:`) are converted, each property in one write of the store
  /// (see ``SettingsProperty/migrateStoredValue(of:)``). Values that do not decode keep their bytes.
  ///
  /// - Returns: The names of the properties whose stored value was written, in declaration order.
  /// - Throws: The first write error (a malformed suite file, a cloud quota); the properties
  ///   before it are migrated, the others are not.
  @discardableResult
  public func migrateStoredValues() throws -> [String] {
    try Self._$settingsProperties.filter { try $0.migrateStoredValue(of: _$settingsRoot) }
      .map(\.name)
  }
}
