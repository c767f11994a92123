import Testing

/// Whole expansions of settings classes, compared as text with what the compiler will see: one
/// per macro and per argument that changes the generated code.
@Suite struct ClassExpansionTests {
  @Test func autoInitFalseGeneratesNoInitializer() {
    expectExpansion(
      #"""
      @ObservableDefaults(autoInit: false, ignoreExternalChanges: true, limitToInstance: false)
      class Settings {
        var name = "x"
      }
      """#,
      #"""
      class Settings {
        var name {
          get {
            access(keyPath: \.name)
            return _$defaults.read(self, key: "name") {
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

        private var _name = "x"

        private let _default_value_of_name = "x"

        private let _$defaults = _ObservableDefaultsRuntime.Binding<Settings>(
          store: _ObservableDefaultsRuntime.Binding<Settings>.store(suiteName: ""),
          prefix: "",
          ignoresExternalChanges: true,
          limitsToInstance: false,
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

        static let _$settingsSchema: [_ObservableDefaultsRuntime.Property<Settings>] = [
          .persisted(
            "name", key: "name",
            property: \.name, storage: \._name,
            defaultValue: \._default_value_of_name, codec: .automatic()
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

  @Test func cloudAutoInitFalseObserveFirst() {
    expectExpansion(
      #"""
      @ObservableCloud(autoInit: false, observeFirst: true)
      class CloudSettings {
        var local = "l"
        @CloudBacked var synced = 1
      }
      """#,
      #"""
      class CloudSettings {
        var local {
          @storageRestrictions(initializes: _local)
          init(initialValue) {
            _local = initialValue
          }
          get {
            access(keyPath: \.local)
            return _local
          }
          set {
            guard _ObservableDefaultsRuntime.hasChanged(newValue, _local) else {
              return
            }
            withMutation(keyPath: \.local) {
              _local = newValue
            }
          }
          _modify {
            access(keyPath: \.local)
            _$defaults.registrar.willSet(self, keyPath: \.local)
            defer {
              _$defaults.registrar.didSet(self, keyPath: \.local)
            }
            yield &_local
          }
        }

        private
          var _local = "l"
        var synced {
          get {
            access(keyPath: \.synced)
            return _$defaults.read(self, key: "synced") {
              $0._synced
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.synced, storage: \._synced,
              defaultValue: \._default_value_of_synced, key: "synced", codec: .automaticForCloud()
            )
          }
        }

        private var _synced = 1

        private let _default_value_of_synced = 1

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

        static let _$settingsSchema: [_ObservableDefaultsRuntime.Property<CloudSettings>] = [
          .observableOnly("local", property: \.local),
          .persisted(
            "synced", key: "synced",
            property: \.synced, storage: \._synced,
            defaultValue: \._default_value_of_synced, codec: .automaticForCloud()
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

  @Test func cloudClassWithAllArguments() {
    expectExpansion(
      #"""
      @ObservableCloud(prefix: "myApp_", syncImmediately: true, developmentMode: true)
      class CloudSettings {
        @CloudKey(keyValueStoreKey: "user_theme") var theme: String = "light"
        var count: Int? = nil
      }
      """#,
      #"""
      class CloudSettings {
        var theme: String {
          get {
            access(keyPath: \.theme)
            return _$defaults.read(self, key: "user_theme") {
              $0._theme
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.theme, storage: \._theme,
              defaultValue: \._default_value_of_theme, key: "user_theme", codec: .automaticForCloud()
            )
          }
        }

        private var _theme: String = "light"

        private let _default_value_of_theme: String = "light"
        var count: Int? {
          get {
            access(keyPath: \.count)
            return _$defaults.read(self, key: "count") {
              $0._count
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.count, storage: \._count,
              defaultValue: \._default_value_of_count, key: "count", codec: .automaticForCloud()
            )
          }
        }

        private var _count: Int? = nil

        private let _default_value_of_count: Int? = nil

        private let _$defaults = _ObservableDefaultsRuntime.Binding<CloudSettings>(
          store: _ObservableDefaultsRuntime.cloudStore(developmentMode: true),
          prefix: "myApp_",
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

        private var _developmentMode: Bool = true

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
          syncImmediately: Bool = true,
          developmentMode: Bool = true
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
            "theme", key: "user_theme",
            property: \.theme, storage: \._theme,
            defaultValue: \._default_value_of_theme, codec: .automaticForCloud()
          ),
          .persisted(
            "count", key: "count",
            property: \.count, storage: \._count,
            defaultValue: \._default_value_of_count, codec: .automaticForCloud()
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

  @Test func mainActorIsolation() {
    expectExpansion(
      #"""
      @ObservableDefaults(defaultIsolationIsMainActor: true)
      class Settings {
        var name = "x"
      }
      """#,
      #"""
      class Settings {
        var name {
          get {
            access(keyPath: \.name)
            return _$defaults.read(self, key: "name") {
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

        private var _name = "x"

        private let _default_value_of_name = "x"

        private let _$defaults = _ObservableDefaultsRuntime.Binding<Settings>(
          store: _ObservableDefaultsRuntime.Binding<Settings>.store(suiteName: ""),
          prefix: "",
          ignoresExternalChanges: false,
          limitsToInstance: true,
          schema: Settings._$settingsSchema,
          deliversOnMainActor: true
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
            "name", key: "name",
            property: \.name, storage: \._name,
            defaultValue: \._default_value_of_name, codec: .automatic()
          ),
        ]

        var _$settingsRoot: Settings {
          self
        }

        var _$settingsStore: _ObservableDefaultsRuntime.StoreInfo {
          _ObservableDefaultsRuntime.StoreInfo(kind: .userDefaults, store: _$defaults.store, prefix: _$defaults.prefix)
        }
      }

      extension Settings: Observation.Observable, @MainActor _ObservableDefaultsRuntime.Settings {
      }
      """#
    )
  }

  @Test func observeFirstPersistsOnlyDefaultsBacked() {
    expectExpansion(
      #"""
      @ObservableDefaults(observeFirst: true)
      public class Settings {
        public var name = "x"
        @DefaultsBacked(userDefaultsKey: "myHeight") public var height = 190
      }
      """#,
      #"""
      public class Settings {
        public var name {
          @storageRestrictions(initializes: _name)
          init(initialValue) {
            _name = initialValue
          }
          get {
            access(keyPath: \.name)
            return _name
          }
          set {
            guard _ObservableDefaultsRuntime.hasChanged(newValue, _name) else {
              return
            }
            withMutation(keyPath: \.name) {
              _name = newValue
            }
          }
          _modify {
            access(keyPath: \.name)
            _$defaults.registrar.willSet(self, keyPath: \.name)
            defer {
              _$defaults.registrar.didSet(self, keyPath: \.name)
            }
            yield &_name
          }
        }

        private var _name = "x"
        public var height {
          get {
            access(keyPath: \.height)
            return _$defaults.read(self, key: "myHeight") {
              $0._height
            }
          }
          set {
            _$defaults.set(
              newValue, object: self, property: \.height, storage: \._height,
              defaultValue: \._default_value_of_height, key: "myHeight", codec: .automatic()
            )
          }
        }

        private var _height = 190

        private let _default_value_of_height = 190

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

        public static let _$settingsSchema: [_ObservableDefaultsRuntime.Property<Settings>] = [
          .observableOnly("name", property: \.name),
          .persisted(
            "height", key: "myHeight",
            property: \.height, storage: \._height,
            defaultValue: \._default_value_of_height, codec: .automatic()
          ),
        ]

        public var _$settingsRoot: Settings {
          self
        }

        public var _$settingsStore: _ObservableDefaultsRuntime.StoreInfo {
          _ObservableDefaultsRuntime.StoreInfo(kind: .userDefaults, store: _$defaults.store, prefix: _$defaults.prefix)
        }
      }

      extension Settings: Observation.Observable, _ObservableDefaultsRuntime.Settings {
      }
      """#
    )
  }

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
            return _$defaults.read(self, key: "name") {
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
            return _$defaults.read(self, key: "user-age") {
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
            return _$defaults.read(self, key: "nickname") {
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
}
