import Testing

/// `previousKeys:` of the key macros: the property table lists them, the accessors stay the same,
/// and misuse is reported at the offending argument or element.
@Suite struct PreviousKeysTests {
  /// The lines where the expansions of two sources differ, as (first, second) pairs; both
  /// expansions must be free of diagnostics and have as many lines.
  private func differingLines(_ first: String, _ second: String) -> [[String]] {
    let (one, two) = (expand(first), expand(second))
    #expect(one.diagnostics == [] && two.diagnostics == [])
    let lines = (one.source.split(separator: "\n"), two.source.split(separator: "\n"))
    #expect(lines.0.count == lines.1.count)
    return zip(lines.0, lines.1).filter { $0 != $1 }.map { [String($0), String($1)] }
  }

  @Test func renamedDefaultsKeyListsItsPreviousKeysInTheSchemaOnly() {
    let changed = differingLines(
      #"""
      @ObservableDefaults
      final class Settings {
        @DefaultsKey(userDefaultsKey: "displayName", previousKeys: ["name", "user_name"]) var displayName = ""
      }
      """#,
      #"""
      @ObservableDefaults
      final class Settings {
        @DefaultsKey(userDefaultsKey: "displayName") var displayName = ""
      }
      """#)
    #expect(
      changed == [
        [
          #"      "displayName", key: "displayName", previousKeys: ["name", "user_name"],"#,
          #"      "displayName", key: "displayName","#,
        ]
      ])
  }

  @Test func cloudBackedPropertyListsItsPreviousKeysInTheSchemaOnly() {
    let changed = differingLines(
      #"""
      @ObservableCloud(observeFirst: true)
      final class CloudSettings {
        @CloudBacked(previousKeys: ["old_theme"]) var theme = "light"
      }
      """#,
      #"""
      @ObservableCloud(observeFirst: true)
      final class CloudSettings {
        @CloudBacked var theme = "light"
      }
      """#)
    #expect(
      changed == [
        [
          #"      "theme", key: "theme", previousKeys: ["old_theme"],"#,
          #"      "theme", key: "theme","#,
        ]
      ])
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
    #expect(
      expansion.source.contains(
        #"""
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
    #expect(
      cloud.source.contains(
        "codec: .automaticForCloud(),\n      conversion: .init(from: .automaticForCloud(), Self.minutes(fromSeconds:))\n    ),"
      ))
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
      [
        #"error: @CloudKey parameter 'previousKeys' must be an array of string literals @ ["b", "\(old)"]"#
      ])
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
