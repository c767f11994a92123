import Testing

/// Misuse of the macros is reported at compile time with these exact messages.
@Suite struct DiagnosticTests {
  @Test func classMacroOnAStruct() {
    expectDiagnostics(
      """
      @ObservableDefaults
      struct Settings {
        var name = "x"
      }
      """,
      [
        "error: @ObservableDefaults can only be applied to a class; 'struct' is not supported @ @ObservableDefaults"
      ])
  }

  @Test func classMacroOnAnActor() {
    expectDiagnostics(
      "@ObservableDefaults actor Settings { var name = \"x\" }",
      [
        "error: @ObservableDefaults can only be applied to a class; 'actor' is not supported @ @ObservableDefaults"
      ])
  }

  @Test func persistedPropertyWithoutInitialValue() {
    expectDiagnostics(
      """
      @ObservableDefaults
      class Settings {
        var name: String
      }
      """,
      [
        "error: @ObservableDefaults property 'name' must have an initial value, or be optional @ name: String"
      ])
  }

  @Test func suiteNameNotALiteral() {
    expectDiagnostics(
      """
      let suite = "x"
      @ObservableDefaults(suiteName: suite)
      class Settings {}
      """,
      ["error: @ObservableDefaults parameter 'suiteName' must be a string literal @ suite"])
  }

  @Test func interpolatedPrefix() {
    expectDiagnostics(
      """
      @ObservableDefaults(prefix: "a\\(1)")
      class Settings {}
      """,
      ["error: @ObservableDefaults parameter 'prefix' must be a string literal @ \"a\\(1)\""])
  }

  @Test func prefixWithADot() {
    expectDiagnostics(
      """
      @ObservableDefaults(prefix: "app.")
      class Settings {}
      """,
      ["error: @ObservableDefaults parameter 'prefix' must not contain '.' @ \"app.\""])
  }

  @Test func booleanArgumentNotALiteral() {
    expectDiagnostics(
      """
      let yes = true
      @ObservableDefaults(observeFirst: yes)
      class Settings {}
      """,
      ["error: @ObservableDefaults parameter 'observeFirst' must be a boolean literal @ yes"])
  }

  @Test func customKeyNotALiteral() {
    expectDiagnostics(
      """
      let key = "k"
      @ObservableDefaults
      class Settings {
        @DefaultsKey(userDefaultsKey: key) var name = "x"
      }
      """,
      ["error: @DefaultsKey parameter 'userDefaultsKey' must be a string literal @ key"])
  }

  @Test func observersOnAPersistedProperty() {
    expectDiagnostics(
      """
      @ObservableDefaults
      class Settings {
        var name = "x" {
          didSet { print(name) }
        }
        @ObservableOnly var count = 0 {
          didSet { print(count) }
        }
      }
      """,
      [
        "warning: @DefaultsBacked property 'name' does not support willSet/didSet; mark it @ObservableOnly to keep them @ didSet { print(name) }"
      ])
  }

  @Test func letComputedAndStaticPropertiesAreLeftAlone() {
    let expansion = expand(
      """
      @ObservableDefaults
      class Settings {
        let fixed = 1
        var computed: Int { fixed + 1 }
        static let shared = 2
      }
      """)
    #expect(expansion.diagnostics == [])
    #expect(
      expansion.source.contains(
        "static let _$settingsProperties: [_ObservableDefaultsRuntime.Property<Settings>] = []"))
    #expect(
      expansion.source.contains(
        "  let fixed = 1\n  var computed: Int { fixed + 1 }\n  static let shared = 2\n"))
  }

  @Test func cloudMacroOnAnEnum() {
    expectDiagnostics(
      "@ObservableCloud enum Settings { case a }",
      [
        "error: @ObservableCloud can only be applied to a class; 'enum' is not supported @ @ObservableCloud"
      ])
  }

  @Test func cloudKeyNotALiteralAndCloudPrefixWithADot() {
    expectDiagnostics(
      """
      @ObservableCloud(prefix: "a.b")
      class Settings {
        @CloudKey(keyValueStoreKey: "k\\(1)") var name = "x"
      }
      """,
      [
        "error: @CloudKey parameter 'keyValueStoreKey' must be a string literal @ \"k\\(1)\"",
        "error: @ObservableCloud parameter 'prefix' must not contain '.' @ \"a.b\"",
      ])
  }

  @Test func cloudBooleanArgumentNotALiteral() {
    expectDiagnostics(
      """
      @ObservableCloud(developmentMode: 1)
      class Settings {}
      """,
      ["error: @ObservableCloud parameter 'developmentMode' must be a boolean literal @ 1"])
  }
}
