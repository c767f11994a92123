import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import Testing

/// Each type is stored by the documented codec priority and reads back exactly, also from the file.
@Suite struct CodecTests {
  private let suite = TemporarySuite()

  /// Writes through one object and flushes; returns a new object on the same file and the file's values.
  private func roundTrip(_ change: (TypeSettings) -> Void) throws -> (TypeSettings, [String: Any]) {
    let store = suite.store()
    change(TypeSettings(userDefaults: store))
    try store.flush()
    return (
      TypeSettings(userDefaults: PropertyListDefaults(fileURL: suite.fileURL)),
      try suite.fileValues()
    )
  }

  @Test func integersOfEveryWidthRoundTrip() throws {
    let (settings, values) = try roundTrip {
      $0.int8 = .min
      $0.int16 = .min
      $0.int32 = .min
      $0.int64 = .min
      $0.uint8 = .max
      $0.uint16 = .max
      $0.uint32 = .max
      $0.uint64 = .max
      $0.uint = 3
    }
    #expect(settings.int8 == .min)
    #expect(settings.int16 == .min)
    #expect(settings.int32 == .min)
    #expect(settings.int64 == .min)
    #expect(settings.uint8 == .max)
    #expect(settings.uint16 == .max)
    #expect(settings.uint32 == .max)
    #expect(settings.uint64 == .max)
    #expect(settings.uint == 3)
    #expect(values["int8"] as? Int == -128)
    // What another process reads from the file:
    #expect(values["int8"].flatMap(DefaultsCodec<Int8>.automatic().decode) == .min)
    #expect(values["uint32"].flatMap(DefaultsCodec<UInt32>.automatic().decode) == .max)
    #expect(values["uint64"].flatMap(DefaultsCodec<UInt64>.automatic().decode) == .max)
  }

  @Test func floatReadsBackExactly() throws {
    let (settings, values) = try roundTrip { $0.float = 0.1 }
    #expect(settings.float == Float(0.1))
    #expect(values["float"] as? Double == Double(Float(0.1)))
    #expect(values["float"].flatMap(DefaultsCodec<Float>.automatic().decode) == Float(0.1))
  }

  @Test func scalarsArraysAndDictionariesAreStoredAsThemselves() throws {
    let date = Date(timeIntervalSinceReferenceDate: 694_900_766)
    let (settings, values) = try roundTrip {
      $0.string = "日本語"
      $0.bool = true
      $0.double = 0.3
      $0.date = date
      $0.data = Data([0, 255])
      $0.strings = ["a", "b"]
      $0.scores = ["x": 1]
    }
    #expect(settings.string == "日本語")
    #expect(settings.bool)
    #expect(settings.double == 0.3)
    #expect(settings.date == date)
    #expect(settings.data == Data([0, 255]))
    #expect(settings.strings == ["a", "b"])
    #expect(settings.scores == ["x": 1])
    #expect(values["strings"] as? [String] == ["a", "b"])
    #expect(values["bool"] as? Bool == true)
  }

  @Test func enumsAreStoredAsTheirRawValue() throws {
    let (settings, values) = try roundTrip {
      $0.theme = .dark
      $0.level = .high
      $0.tag = Tag(rawValue: "x")
    }
    #expect(settings.theme == .dark)
    #expect(settings.level == .high)
    #expect(settings.tag == Tag(rawValue: "x"))
    #expect(values["theme"] as? String == "dark")
    #expect(values["level"] as? Int == 2)
    #expect(values["tag"] as? String == "x")
  }

  @Test func codableStructsAndURLsAreStoredAsJSON() throws {
    let url = URL(string: "https://example.com/a/b?q=1#frag")!
    let (settings, values) = try roundTrip {
      $0.profile = Profile(name: "Bo", age: 40)
      $0.url = url
      $0.optionalProfile = Profile(name: "C", age: 1)
    }
    #expect(settings.profile == Profile(name: "Bo", age: 40))
    #expect(settings.url == url)
    #expect(settings.optionalProfile == Profile(name: "C", age: 1))
    let json = try #require(values["profile"] as? Data)
    #expect(try JSONDecoder().decode(Profile.self, from: json) == Profile(name: "Bo", age: 40))
    #expect(try JSONDecoder().decode(URL.self, from: try #require(values["url"] as? Data)) == url)
  }

  @Test func nilRemovesTheKeyAndTheDeclarationDefaultReturns() throws {
    let (settings, values) = try roundTrip {
      $0.optionalInt = 9
      $0.optionalInt = nil
      $0.optionalTheme = .light
      $0.optionalTheme = nil
      $0.optionalURL = URL(string: "https://a.b")
      $0.optionalURL = nil
    }
    #expect(settings.optionalInt == 7)
    #expect(settings.optionalTheme == nil)
    #expect(settings.optionalURL == nil)
    #expect(values.isEmpty)
  }

  @Test func valuesWrittenByHandInTheDocumentedFormatsReadBack() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    store.set(Theme.light.rawValue, forKey: "theme")
    store.set(try JSONEncoder().encode(Profile(name: "Hand", age: 5)), forKey: "profile")
    let settings = TypeSettings(userDefaults: store)
    #expect(settings.theme == .light)
    #expect(settings.profile == Profile(name: "Hand", age: 5))
  }

  @Test func aValueOfTheWrongStoredTypeFallsBackToTheDefault() {
    let suite = TemporarySuite()
    let store = suite.store()
    store.set("not a number", forKey: "int8")
    store.set(300, forKey: "uint8")
    let settings = TypeSettings(userDefaults: store)
    #expect(settings.int8 == -8)
    #expect(settings.uint8 == 8)
  }

  @Test func nonEquatableCodableNotifiesOnlyWhenItsStoredFormChanges() {
    let suite = TemporarySuite()
    let settings = TypeSettings(userDefaults: suite.store())
    let window = ChangeCounter(settings, \.window)
    settings.window = Window(width: 800)
    #expect(window.count == 0)
    settings.window = Window(width: 1024)
    #expect(window.count == 1)
  }

  @Test func schemaDescribesEveryType() {
    let types = TypeSettings._$settingsProperties.map(\.valueType)
    #expect(
      types.prefix(4) == [
        .string, .bool, .integer(bitWidth: 64, signed: true), .integer(bitWidth: 8, signed: true),
      ])
    #expect(
      TypeSettings._$settingsProperties.first { $0.name == "theme" }?.valueType
        == .enumeration(cases: ["system", "light", "dark"]))
    #expect(
      TypeSettings._$settingsProperties.first { $0.name == "optionalProfile" }?.valueType
        == .optional(.codable))
    #expect(TypeSettings._$settingsProperties.first { $0.name == "url" }?.valueType == .url)
  }
}

/// Codecs are made once per type and rule: the rules a type meets in different contexts keep
/// their own codecs, whichever is asked for first.
@Suite struct CodecCacheTests {
  /// The codec a generic context that only knows `Codable` gets: JSON.
  private func codableCodec<Value: Codable>(_: Value.Type) -> DefaultsCodec<Value> { .automatic() }
  private func optionalCodableCodec<Value: Codable>(_: Value.Type) -> DefaultsCodec<Value?> {
    .automatic()
  }

  @Test func eachRuleOfOneTypeKeepsItsOwnCodec() {
    for jsonFirst in [true, false] {
      if jsonFirst { _ = codableCodec(Int16.self).encode(1) }
      #expect(DefaultsCodec<Int16>.automatic().encode(5) as? Int == 5)
      #expect(codableCodec(Int16.self).encode(5) as? Data == Data("5".utf8))
      #expect(DefaultsCodec<Int16?>.automatic().encode(5) as? Int == 5)
      #expect(DefaultsCodec<Int16?>.automatic().encode(nil) == nil)
      #expect(optionalCodableCodec(Int16.self).encode(5) as? Data == Data("5".utf8))
      #expect(optionalCodableCodec(Int16.self).encode(nil) == nil)
      // The cloud store does not take an Int8 as it is; defaults do.
      #expect(DefaultsCodec<Int8>.automaticForCloud().encode(3) as? Data == Data("3".utf8))
      #expect(DefaultsCodec<Int8>.automatic().encode(3) as? Int == 3)
    }
  }

  @Test func integersAreStoredInTheFormAFileReadsBack() {
    #expect(DefaultsCodec<Int>.automatic().encode(.min) as? Int == .min)
    #expect(DefaultsCodec<Int64>.automatic().encode(.max) as? Int == .max)
    #expect(DefaultsCodec<UInt32>.automatic().encode(.max) as? Int == Int(UInt32.max))
    #expect(DefaultsCodec<UInt64>.automatic().encode(.max) as? UInt64 == .max)
    #expect(DefaultsCodec<UInt>.automatic().encode(UInt(Int.max) + 1) as? UInt64 == 1 << 63)
  }
}

/// The codec of a cloud scalar compares values without building their stored forms; it tells
/// the same as comparing the stored forms, NaNs, signed zeros and integers past `Int.max`
/// included.
@Suite struct CloudCodecEqualityTests {
  /// Whether `codec` compares every pair of `values` as their stored forms compare.
  func agrees<Value>(_ codec: DefaultsCodec<Value>, _ values: [Value]) -> Bool {
    values.allSatisfy { lhs in
      values.allSatisfy { rhs in
        codec.isEqual(lhs, rhs) == propertyListValuesEqual(codec.encode(lhs), codec.encode(rhs))
      }
    }
  }

  @Test func scalarsCompareAsTheirStoredForms() {
    #expect(agrees(.automaticForCloud(), [0.0, -0.0, .nan, -.nan, .infinity, 0.1, 1]))
    #expect(agrees(.automaticForCloud(), [Float(0), -0, .nan, 0.1, 1]))
    #expect(agrees(.automaticForCloud(), [0, 1, Int.max, .min]))
    #expect(agrees(.automaticForCloud(), [0, 1, UInt64.max, UInt64(Int.max) + 1]))
    #expect(agrees(.automaticForCloud(), [Int8.min, 0, .max]))
    #expect(agrees(.automaticForCloud(), ["", "é", "e\u{301}", "a"]))
    #expect(agrees(.automaticForCloud(), [true, false]))
    #expect(agrees(.automaticForCloud(), [Date(timeIntervalSince1970: 0), .distantFuture]))
    #expect(agrees(.automaticForCloud(), [Data(), Data([1]), Data([1, 2])]))
    #expect(agrees(.automaticForCloud(), [[0.0], [.nan], [-0.0, 1]]))
    #expect(DefaultsCodec<Double>.automaticForCloud().isEqual(.nan, .nan))
  }
}
