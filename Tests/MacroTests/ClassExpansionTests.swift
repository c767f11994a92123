import Testing

/// The expansion of a whole settings class, compared as text with what the compiler will see.
@Suite struct ClassExpansionTests {
  @Test func settingsClassWithSuitePrefixCustomKeyOptionalObservableOnlyAndIgnore() {
    expectExpansion(
      #"""
      @ObservableDefaults(suiteName: "com.example.demo", prefix: "app_")
      final class Settings {
        /// The user's name.
        var name: String = "Fatbobman"
        @DefaultsKey(userDefaultsKey: "user-age") var age = 20
        var nickname: String?
        @ObservableOnly var count = 0
        @Ignore var scratch = 1
      }
      """#,
      #"""
      final class Settings {
        /// The user's name.
        var name: String {
          get {
            access(keyPath: \.name)
            return _$defaults.read(self) {
              $0._name
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.name, storage: \._name,
              defaultValue: \._default_value_of_name, key: "name", codec: .automatic()
            )
          }
        }

        private var _name: String = "Fatbobman"

        private let _default_value_of_name: String = "Fatbobman"
        var age {
          get {
            access(keyPath: \.age)
            return _$defaults.read(self) {
              $0._age
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.age, storage: \._age,
              defaultValue: \._default_value_of_age, key: "user-age", codec: .automatic()
            )
          }
        }

        private var _age = 20

        private let _default_value_of_age = 20
        var nickname: String? {
          get {
            access(keyPath: \.nickname)
            return _$defaults.read(self) {
              $0._nickname
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.nickname, storage: \._nickname,
              defaultValue: \._default_value_of_nickname, key: "nickname", codec: .automatic()
            )
          }
        }

        private var _nickname: String? = nil

        private let _default_value_of_nickname: String? = nil
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            access(keyPath: \.count)
            return _count
          }
          set {
            guard _ObservableDefaultsRuntime.hasChanged(newValue, _count) else {
              return
            }
            withMutation(keyPath: \.count) {
              _count = newValue
            }
          }
          _modify {
            access(keyPath: \.count)
            _$defaults.registrar.willSet(self, keyPath: \.count)
            defer {
              _$defaults.registrar.didSet(self, keyPath: \.count)
            }
            yield &_count
          }
        }

        private var _count = 0
        var scratch = 1

        private let _$defaults = _ObservableDefaultsRuntime.Binding<Settings>(
          store: _ObservableDefaultsRuntime.Binding<Settings>.store(suiteName: "com.example.demo"),
          prefix: "app_",
          ignoresExternalChanges: false,
          schema: Settings.settingsSchema,
          deliversOnMainActor: false
        )

        private var _userDefaults: Foundation.UserDefaults {
          get {
            _$defaults.userDefaults
          }
          set {
            _$defaults.userDefaults = newValue
          }
        }

        private var _prefix: String {
          get {
            _$defaults.prefix
          }
          set {
            _$defaults.prefix = newValue
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

        internal nonisolated func access<Member>(keyPath: KeyPath<Settings, Member>) {
          _$defaults.registrar.access(self, keyPath: keyPath)
        }

        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Settings, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$defaults.registrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        private func observerStarter(observableKeysBlacklist: [PartialKeyPath<Settings>] = []) {
          _$defaults.start(self, ignoring: observableKeysBlacklist)
        }

        static let settingsSchema: [_ObservableDefaultsRuntime.Property<Settings>] = [
          .persisted(
            "name", key: "name", summary: "The user's name.",
            property: \.name, storage: \._name,
            defaultValue: \._default_value_of_name, codec: .automatic()
          ),
          .persisted(
            "age", key: "user-age",
            property: \.age, storage: \._age,
            defaultValue: \._default_value_of_age, codec: .automatic()
          ),
          .persisted(
            "nickname", key: "nickname",
            property: \.nickname, storage: \._nickname,
            defaultValue: \._default_value_of_nickname, codec: .automatic()
          ),
          .observableOnly("count", property: \.count),
        ]

        var _settingsRoot: Settings {
          self
        }

        var settingsStore: _ObservableDefaultsRuntime.StoreInfo {
          _ObservableDefaultsRuntime.StoreInfo(kind: .userDefaults, store: _$defaults.store, prefix: _$defaults.prefix)
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
      }

      extension Settings: Observation.Observable, _ObservableDefaultsRuntime.Settings {
      }
      """#
    )
  }
}
