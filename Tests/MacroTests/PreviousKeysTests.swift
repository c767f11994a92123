import Testing

/// `previousKeys:` of the key macros: the schema lists them, the accessors stay the same, and
/// misuse is reported at the offending argument or element.
@Suite struct PreviousKeysTests {
  @Test func renamedDefaultsKeyListsItsPreviousKeysInTheSchema() {
    expectExpansion(
      #"""
      @ObservableDefaults
      final class Settings {
        @DefaultsKey(userDefaultsKey: "displayName", previousKeys: ["name", "user_name"]) var displayName = ""
      }
      """#,
      #"""
      final class Settings {
        var displayName {
          get {
            access(keyPath: \.displayName)
            return _$defaults.read(self, key: "displayName") {
              $0._displayName
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.displayName, storage: \._displayName,
              defaultValue: \._default_value_of_displayName, key: "displayName", codec: .automatic()
            )
          }
        }

        private var _displayName = ""

        private let _default_value_of_displayName = ""

        private let _$defaults = _ObservableDefaultsRuntime.Binding<Settings>(
          store: _ObservableDefaultsRuntime.Binding<Settings>.store(suiteName: ""),
          prefix: "",
          ignoresExternalChanges: false,
          limitsToInstance: true,
          schema: Settings._$settingsSchema,
          deliversOnMainActor: false
        )

        private var _prefix: String {
          get {
            _$defaults.prefix
          }
          set {
            _$defaults.prefix = newValue
          }
        }

        internal nonisolated func access<Member>(keyPath: KeyPath<Settings, Member>) {
          _$defaults.access(self, keyPath: keyPath)
        }

        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Settings, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$defaults.registrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        private var _userDefaults: Foundation.UserDefaults {
          get {
            _$defaults.userDefaults
          }
          set {
            _$defaults.userDefaults = newValue
          }
        }

        private var _isExternalNotificationDisabled: Bool {
          get {
            _$defaults.ignoresExternalChanges
          }
          set {
            _$defaults.ignoresExternalChanges = newValue
          }
        }

        private func observerStarter(observableKeysBlacklist: [PartialKeyPath<Settings>] = []) {
          _$defaults.start(self, ignoring: observableKeysBlacklist)
        }

        public init(
          userDefaults: Foundation.UserDefaults? = nil,
          ignoreExternalChanges: Bool? = nil,
          prefix: String? = nil,
          ignoredKeyPathsForExternalUpdates: [PartialKeyPath<Settings>] = []
        ) {
          if let userDefaults {
            _userDefaults = userDefaults
          }
          if let ignoreExternalChanges {
            _isExternalNotificationDisabled = ignoreExternalChanges
          }
          if let prefix {
            _prefix = prefix
          }
          observerStarter(observableKeysBlacklist: ignoredKeyPathsForExternalUpdates)
        }

        static let _$settingsSchema: [_ObservableDefaultsRuntime.Property<Settings>] = [
          .persisted(
            "displayName", key: "displayName", previousKeys: ["name", "user_name"],
            property: \.displayName, storage: \._displayName,
            defaultValue: \._default_value_of_displayName, codec: .automatic()
          ),
        ]

        var _$settingsRoot: Settings {
          self
        }

        var _$settingsStore: _ObservableDefaultsRuntime.StoreInfo {
          _ObservableDefaultsRuntime.StoreInfo(kind: .userDefaults, store: _$defaults.store, prefix: _$defaults.prefix)
        }
      }

      extension Settings: Observation.Observable, _ObservableDefaultsRuntime.Settings {
      }
      """#
    )
  }

  @Test func cloudBackedPropertyListsItsPreviousKeysInTheSchema() {
    expectExpansion(
      #"""
      @ObservableCloud(observeFirst: true)
      final class CloudSettings {
        @CloudBacked(previousKeys: ["old_theme"]) var theme = "light"
      }
      """#,
      #"""
      final class CloudSettings {
        var theme {
          get {
            access(keyPath: \.theme)
            return _$defaults.read(self, key: "theme") {
              $0._theme
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.theme, storage: \._theme,
              defaultValue: \._default_value_of_theme, key: "theme", codec: .automaticForCloud()
            )
          }
        }

        private var _theme = "light"

        private let _default_value_of_theme = "light"

        private let _$defaults = _ObservableDefaultsRuntime.Binding<CloudSettings>(
          store: _ObservableDefaultsRuntime.cloudStore(developmentMode: false),
          prefix: "",
          ignoresExternalChanges: false,
          schema: CloudSettings._$settingsSchema,
          deliversOnMainActor: false
        )

        private var _prefix: String {
          get {
            _$defaults.prefix
          }
          set {
            _$defaults.prefix = newValue
          }
        }

        internal nonisolated func access<Member>(keyPath: KeyPath<CloudSettings, Member>) {
          _$defaults.access(self, keyPath: keyPath)
        }

        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<CloudSettings, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$defaults.registrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        private var _syncImmediately: Bool {
          get {
            _$defaults.synchronizesEveryWrite
          }
          set {
            _$defaults.synchronizesEveryWrite = newValue
          }
        }

        private var _developmentMode: Bool = false

        public var _developmentMode_: Bool {
          _ObservableDefaultsRuntime.isCloudDevelopmentMode(_developmentMode)
        }

        private var _cloudObserver: CloudObservation?

        /// Starts following the cloud store's changes (what an initializer of your own creates
        /// when `autoInit` is `false`).
        private final class CloudObservation {
          init(host: CloudSettings, prefix: String) {
            host._$defaults.prefix = prefix
            host._$defaults.start(host)
          }
        }

        public init(
          prefix: String? = nil,
          syncImmediately: Bool = false,
          developmentMode: Bool = false
        ) {
          if let prefix {
            _prefix = prefix
          }
          _syncImmediately = syncImmediately
          _developmentMode = developmentMode
          _$defaults.store = _ObservableDefaultsRuntime.cloudStore(developmentMode: developmentMode)
          _cloudObserver = CloudObservation(host: self, prefix: _prefix)
        }

        static let _$settingsSchema: [_ObservableDefaultsRuntime.Property<CloudSettings>] = [
          .persisted(
            "theme", key: "theme", previousKeys: ["old_theme"],
            property: \.theme, storage: \._theme,
            defaultValue: \._default_value_of_theme, codec: .automaticForCloud()
          ),
        ]

        var _$settingsRoot: CloudSettings {
          self
        }

        var _$settingsStore: _ObservableDefaultsRuntime.StoreInfo {
          _ObservableDefaultsRuntime.StoreInfo(kind: .cloud, store: _$defaults.store, prefix: _$defaults.prefix)
        }
      }

      extension CloudSettings: Observation.Observable, _ObservableDefaultsRuntime.Settings {
      }
      """#
    )
  }

  @Test func aConversionIsPassedToTheSchemaWithTheStoresCodecFactory() {
    let expansion = expand(
      #"""
      @ObservableDefaults
      final class Settings {
        @DefaultsKey(previousKeys: ["timeout"], convertingFrom: { (seconds: Int) in Double(seconds) / 60 })
        var minutes: Double = 5
      }
      """#)
    #expect(expansion.diagnostics == [])
    #expect(expansion.source.contains(#"""
            .persisted(
              "minutes", key: "minutes", previousKeys: ["timeout"],
              property: \.minutes, storage: \._minutes,
              defaultValue: \._default_value_of_minutes, codec: .automatic(),
              conversion: .init(from: .automatic(), { (seconds: Int) in
                  Double(seconds) / 60
                })
            ),
        """#))
    let cloud = expand(
      #"""
      @ObservableCloud
      final class Settings {
        @CloudKey(convertingFrom: Self.minutes(fromSeconds:)) var minutes: Double = 5
      }
      """#)
    #expect(cloud.source.contains(
      "codec: .automaticForCloud(),\n      conversion: .init(from: .automaticForCloud(), Self.minutes(fromSeconds:))\n    ),"))
  }

  @Test func previousKeysNotAnArrayLiteral() {
    expectDiagnostics(
      """
      let keys = ["a"]
      @ObservableDefaults
      class Settings {
        @DefaultsKey(previousKeys: keys) var name = "x"
      }
      """,
      ["error: @DefaultsKey parameter 'previousKeys' must be an array of string literals @ keys"])
  }

  @Test func previousKeyNotAPlainStringLiteral() {
    expectDiagnostics(
      #"""
      let old = "a"
      @ObservableCloud
      class Settings {
        @CloudKey(previousKeys: ["b", "\(old)"]) var name = "x"
      }
      """#,
      [#"error: @CloudKey parameter 'previousKeys' must be an array of string literals @ ["b", "\(old)"]"#])
  }

  @Test func previousKeyEqualToTheKey() {
    expectDiagnostics(
      """
      @ObservableDefaults
      class Settings {
        @DefaultsKey(userDefaultsKey: "title", previousKeys: ["name", "title"]) var name = "x"
      }
      """,
      [#"error: @DefaultsKey previous key 'title' is the property's key @ "title""#])
  }

  @Test func previousKeyEqualToThePropertyName() {
    expectDiagnostics(
      """
      @ObservableDefaults(observeFirst: true)
      class Settings {
        @DefaultsBacked(previousKeys: ["name"]) var name = "x"
      }
      """,
      [#"error: @DefaultsBacked previous key 'name' is the property's key @ "name""#])
  }

  @Test func previousKeyListedTwice() {
    expectDiagnostics(
      """
      @ObservableCloud
      class Settings {
        @CloudKey(keyValueStoreKey: "theme", previousKeys: ["colour", "colour"]) var theme = "x"
      }
      """,
      [#"error: @CloudKey previous key 'colour' is listed more than once @ "colour""#])
  }
}
