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
      named: "autoInitFalseGeneratesNoInitializer"
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
      named: "cloudAutoInitFalseObserveFirst"
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
      named: "cloudClassWithAllArguments"
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
      named: "mainActorIsolation"
    )
  }

  /// A `nonisolated` class (in a module whose default isolation is the main actor) gets a
  /// `nonisolated` conformance extension, as Apple's `@Observable` expands.
  @Test func nonisolatedClassGetsANonisolatedConformance() {
    expectExpansion(
      #"""
      @ObservableDefaults
      nonisolated final class Settings {
        var name = "x"
      }
      """#,
      named: "nonisolatedClassGetsANonisolatedConformance"
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
      named: "observeFirstPersistsOnlyDefaultsBacked"
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
      named: "settingsClassWithSuitePrefixCustomKeyOptionalObservableOnlyAndIgnore"
    )
  }

  /// A class that is generic, or inside a generic type, cannot hold static stored properties:
  /// its accessors name their key paths with literals and no `_keyPath_of_` constant is made
  /// (the classes above read theirs from `Settings._keyPath_of_name`).
  @Test func genericClassesUseKeyPathLiterals() {
    let sources = [
      "@ObservableDefaults\nfinal class Settings<Tag> {\n  var name = \"x\"\n}",
      "struct Outer<Tag> {\n  @ObservableDefaults\n  final class Settings {\n    var name = \"x\"\n  }\n}",
    ]
    for source in sources {
      let expansion = expand(source)
      #expect(expansion.diagnostics == [])
      #expect(!expansion.source.contains("_keyPath_of_"))
      #expect(expansion.source.contains("access(keyPath: \\.name)"))
      #expect(expansion.source.contains("property: \\.name, storage: \\._name"))
    }
  }
}
