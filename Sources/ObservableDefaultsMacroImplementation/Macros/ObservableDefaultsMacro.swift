import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableDefaults`: makes a class's stored properties observable and persisted in a
/// UserDefaults suite. Adds `@DefaultsBacked` (or, with `observeFirst`, `@ObservableOnly`) to
/// each stored property, the members below, and the `Observable` and `ObservableSettings` conformances.
public enum ObservableDefaultsMacro: SettingsClassMacro {
  static let flavor = StoreFlavor.defaults
  static let storeKind = "userDefaults"

  static func storeExpression(_ options: ClassOptions, className: String) -> String {
    "_ObservableDefaultsRuntime.Binding<\(className)>.store(suiteName: \(options.suiteName.quoted))"
  }

  static func bindingArguments(_ options: ClassOptions) -> String {
    "limitsToInstance: \(options.flag("limitToInstance")),\n  "
  }

  static func storeMembers(_ options: ClassOptions, className: String, access: String)
    -> [DeclSyntax]
  {
    var decls: [DeclSyntax] = [
      """
      private var _userDefaults: ObservableDefaults.UserDefaults {
        get { _$defaults.userDefaults }
        set { _$defaults.userDefaults = newValue }
      }
      """,
      """
      private var _isExternalNotificationDisabled: Bool {
        get { _$defaults.ignoresExternalChanges }
        set { _$defaults.ignoresExternalChanges = newValue }
      }
      """,
      """
      private var _ignoredKeyPathsForExternalUpdates: [PartialKeyPath<\(raw: className)>] {
        get { _$defaults.ignoredKeyPaths }
        set { _$defaults.ignoredKeyPaths = newValue }
      }
      """,
      """
      private func observerStarter(observableKeysBlacklist: [PartialKeyPath<\(raw: className)>] = []) {
        _$defaults.start(self, ignoring: observableKeysBlacklist)
      }
      """,
    ]
    if options.flag("autoInit") {
      decls.append(
        """
        public init(
          userDefaults: ObservableDefaults.UserDefaults? = nil,
          ignoreExternalChanges: Bool? = nil,
          prefix: String? = nil,
          ignoredKeyPathsForExternalUpdates: [PartialKeyPath<\(raw: className)>] = []
        ) {
          if let userDefaults { _userDefaults = userDefaults }
          if let ignoreExternalChanges { _isExternalNotificationDisabled = ignoreExternalChanges }
          if let prefix { _prefix = prefix }
          observerStarter(observableKeysBlacklist: ignoredKeyPathsForExternalUpdates)
        }
        """)
    }
    return decls
  }
}
