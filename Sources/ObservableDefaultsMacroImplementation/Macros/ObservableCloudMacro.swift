import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableCloud`: makes a class's stored properties observable and persisted in the cloud
/// key-value store (`NSUbiquitousKeyValueStore`). Adds `@CloudBacked` (or, with `observeFirst`,
/// `@ObservableOnly`) to each stored property, the members below, and the conformances.
public enum ObservableCloudMacro: SettingsClassMacro {
  static let flavor = StoreFlavor.cloud
  static let storeKind = "cloud"

  static func storeExpression(_ options: ClassOptions, className: String) -> String {
    "_ObservableDefaultsRuntime.cloudStore(developmentMode: \(options.flag("developmentMode")))"
  }

  static func bindingArguments(_ options: ClassOptions) -> String { "" }

  static func storeMembers(_ options: ClassOptions, className: String, access: String)
    -> [DeclSyntax]
  {
    let developmentMode = options.flag("developmentMode")
    let syncImmediately = options.flag("syncImmediately")
    var decls: [DeclSyntax] = [
      """
      private var _syncImmediately: Bool {
        get { _$defaults.synchronizesEveryWrite }
        set { _$defaults.synchronizesEveryWrite = newValue }
      }
      """,
      "private var _developmentMode: Bool = \(raw: developmentMode)",
      """
      public var _developmentMode_: Bool {
        _ObservableDefaultsRuntime.isCloudDevelopmentMode(_developmentMode)
      }
      """,
      "private var _cloudObserver: CloudObservation?",
      """
      /// Starts following the cloud store's changes (what an initializer of your own creates
      /// when `autoInit` is `false`).
      private final class CloudObservation {
        init(host: \(raw: className), prefix: String) {
          host._$defaults.prefix = prefix
          host._$defaults.start(host)
        }
      }
      """,
    ]
    if options.flag("autoInit") {
      decls.append(
        """
        public init(
          prefix: String? = nil,
          syncImmediately: Bool = \(raw: syncImmediately),
          developmentMode: Bool = \(raw: developmentMode)
        ) {
          if let prefix { _prefix = prefix }
          _syncImmediately = syncImmediately
          _developmentMode = developmentMode
          _$defaults.store = _ObservableDefaultsRuntime.cloudStore(developmentMode: developmentMode)
          _cloudObserver = CloudObservation(host: self, prefix: _prefix)
        }
        """)
    }
    return decls
  }
}
