import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A write is acknowledged only when every reader reads the file back within
/// ``PropertyListLimits``: a value past a limit (nesting, values or string and data bytes counted
/// once per reference, as a reader expands a binary file's shared objects) is refused before it
/// is acknowledged, naming the key and the limit, on every write path, and the file keeps its
/// last good version.
@Suite struct WriteLimitsTests {
  /// A value past one of the limits a reader applies.
  enum PastLimit: CaseIterable, CustomStringConvertible {
    /// Arrays nested 600 deep.
    case depth
    /// An array of 1,100,000 copies of one short string: a few objects in a binary file.
    case values

    var value: Any {
      switch self {
      case .depth: (0..<600).reduce("deep" as Any) { inner, _ in [inner] }
      case .values: [Any](repeating: "x", count: 1_100_000)
      }
    }

    /// The refusal's reason, for a file whose other keys are `otherKeys` short strings.
    func reason(otherKeys: Int) -> String {
      switch self {
      case .depth:
        "it nests arrays and dictionaries deeper than the 512 levels a reader reads; nothing was "
          + "written"
      case .values:
        "it would make the file expand to \(1_100_003 + 2 * otherKeys) values when read (each counted once per "
          + "reference), above the 1000000 a reader reads; nothing was written"
      }
    }

    var description: String { self == .depth ? "depth" : "values" }
  }

  /// The cases a format's readers refuse: XML stores every copy, so only nesting limits it.
  static let cases: [(PropertyListSerialization.PropertyListFormat, PastLimit)] = [
    (.binary, .depth), (.binary, .values), (.xml, .depth),
  ]

  /// A suite of `format` holding `small` = `kept`, and its bytes.
  private func suite(
    _ format: PropertyListSerialization.PropertyListFormat, in folder: TemporaryFolder
  ) throws -> (url: URL, bytes: Data) {
    let url = folder.file("suite.plist")
    try foundationWrite(["small": "kept"], to: url, format: format)
    return (url, try Data(contentsOf: url))
  }

  @Test(arguments: cases)
  func aSuitesFlushRefusesAValuePastAReadersLimitAndKeepsTheFile(
    _ format: PropertyListSerialization.PropertyListFormat, _ limit: PastLimit
  ) throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(format, in: folder)
    let defaults = PropertyListDefaults(fileURL: url)
    // A first flush, so that a binary suite's next one adds to its draft.
    defaults.set("one", forKey: "first")
    try defaults.flush()
    let good = try Data(contentsOf: url)
    #expect(good != before)
    defaults.set(limit.value, forKey: "big")
    let error = try #require(throws: PropertyListError.self) { try defaults.flush() }
    #expect(error.kind == .invalidValue(key: "big"))
    #expect(error.reason == limit.reason(otherKeys: 2))
    #expect(try Data(contentsOf: url) == good)
    #expect(defaults.object(forKey: "big") == nil)
    #expect(defaults.lastError == error)
    defaults.set("more", forKey: "other")
    try defaults.flush()
    let read = try #require(try PropertyListFile(url: url).read()).values
    #expect(Set(read.keys.map(\.string)) == ["small", "first", "other"])
    #expect(try PythonPlistlib.strings(url) == ["small": "kept", "first": "one", "other": "more"])
  }

  @Test(arguments: cases)
  func aOneShotWriteRefusesAValuePastAReadersLimitAndKeepsTheFile(
    _ format: PropertyListSerialization.PropertyListFormat, _ limit: PastLimit
  ) throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(format, in: folder)
    let file = PropertyListFile(url: url)
    let error = try #require(throws: PropertyListError.self) {
      try file.write(["big": .set(limit.value)])
    }
    #expect(error.kind == .invalidValue(key: "big"))
    #expect(error.reason == limit.reason(otherKeys: 1))
    #expect(try Data(contentsOf: url) == before)
    #expect(try file.read()?.values.count == 1)
  }

  @Test(arguments: cases)
  func aWriteOfTheWholeDocumentRefusesAValuePastAReadersLimit(
    _ format: PropertyListSerialization.PropertyListFormat, _ limit: PastLimit
  ) throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(format, in: folder)
    var known: PropertyListSnapshot?
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(url: url).update(known: &known) { document in
        document.values[PropertyListKey("big")] = limit.value
        return true
      }
    }
    // The keys an update changes are not known: a refusal of the whole file names none.
    let reason = limit.reason(otherKeys: 1)
    #expect(error.kind == (limit == .depth ? .invalidValue(key: "big") : .unwritable))
    #expect(error.reason == (limit == .depth ? reason : String(reason.dropFirst(3))))
    #expect(try Data(contentsOf: url) == before)
  }

  /// Equal data stored once in a binary file and referred to by each key: a reader counts its
  /// bytes once per key, so the eighth 9 MiB key passes 64 MiB.
  @Test func aBinarySuiteRefusesTheKeyThatWouldPassTheBytesAReaderExpands() throws {
    let folder = try TemporaryFolder()
    let (url, _) = try suite(.binary, in: folder)
    let defaults = PropertyListDefaults(fileURL: url)
    let data = Data(repeating: 7, count: 9 << 20)
    for index in 0..<7 {
      defaults.set(data, forKey: "data\(index)")
      try defaults.flush()
    }
    let good = try Data(contentsOf: url)
    #expect(good.count < 10 << 20)
    defaults.set(data, forKey: "data7")
    let error = try #require(throws: PropertyListError.self) { try defaults.flush() }
    #expect(error.kind == .invalidValue(key: "data7"))
    #expect(
      error.reason
        == "it would make the file expand to \(8 * (9 << 20) + 9 + 8 * 5) bytes of strings and "
        + "data when read (each "
        + "counted once per reference), above the 67108864 a reader reads; nothing was written")
    #expect(try Data(contentsOf: url) == good)
    #expect(defaults.data(forKey: "data7") == nil)
    #expect(try PropertyListFile(url: url).read()?.values.count == 8)
  }

  /// Eight keys of equal 9 MiB data set before one flush: each set is accepted, and only the
  /// eight together pass the 64 MiB a reader expands. The flush writes them in the order set
  /// and refuses the last, which passes the limit on top of the seven before it: it takes its
  /// value on disk again, observers are told, and the suite's next flush succeeds. (The flush
  /// was refused as a whole, every key stayed pending, and every later flush failed again.)
  @Test func aFlushOfKeysThatPassALimitOnlyTogetherRefusesTheOneThatPassesIt() throws {
    let folder = try TemporaryFolder()
    let (url, _) = try suite(.binary, in: folder)
    let defaults = PropertyListDefaults(fileURL: url)
    let log = DefaultsChangeLog()
    let observation = defaults.observe(log.handler)
    defer { observation.cancel() }
    let data = Data(repeating: 7, count: 9 << 20)
    for index in 0..<8 { defaults.set(data, forKey: "data\(index)") }
    let error = try #require(throws: PropertyListError.self) { try defaults.flush() }
    #expect(error.kind == .invalidValue(key: "data7"))
    #expect(
      error.reason
        == "it would make the file expand to \(8 * (9 << 20) + 9 + 8 * 5) bytes of strings and "
        + "data when read (each counted once per reference), above the 67108864 a reader reads; "
        + "nothing was written")
    #expect(defaults.data(forKey: "data7") == nil)
    #expect(log.changes(from: .otherProcess).flatMap(\.keys) == ["data7"])
    let read = try #require(try PropertyListFile(url: url).read()).values
    #expect(Set(read.keys.map(\.string)) == Set(["small"] + (0..<7).map { "data\($0)" }))
    #expect((0..<7).allSatisfy { read[PropertyListKey("data\($0)")] as? Data == data })
    defaults.set("more", forKey: "other")
    try defaults.flush()
    #expect(defaults.lastError == nil)
    #expect(try PropertyListFile(url: url).read()?.values.count == 9)
  }

  /// The one-shot write splices the new values after the file's objects: within one write, equal
  /// values are stored once too.
  @Test func aOneShotWriteOfManyKeysHoldingEqualDataRefusesPastTheBytesAReaderExpands() throws {
    let folder = try TemporaryFolder()
    let (url, before) = try suite(.binary, in: folder)
    let data = Data(repeating: 7, count: 9 << 20)
    let changes = Dictionary(
      uniqueKeysWithValues: (0..<8).map {
        (PropertyListKey("data\($0)"), PropertyListChange.set(data))
      })
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(url: url).write(changes)
    }
    #expect(error.kind == .unwritable)
    #expect(
      error.reason
        == "writing data0, data1, data2, data3, data4, data5, data6, data7 would make the file "
        + "expand to \(8 * (9 << 20) + 9 + 8 * 5) bytes of strings and data when read (each counted once per "
        + "reference), above the 67108864 a reader reads; nothing was written")
    #expect(try Data(contentsOf: url) == before)
  }

  /// Just below the limits, the value is written and every reader reads it back.
  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func valuesJustWithinTheLimitsAreWrittenAndReadBack(
    _ format: PropertyListSerialization.PropertyListFormat
  ) throws {
    let folder = try TemporaryFolder()
    let (url, _) = try suite(format, in: folder)
    // 510 arrays from depth 2: the string is at depth 512.
    let deep = (0..<510).reduce("deep" as Any) { inner, _ in [inner] }
    let many = [Any](repeating: "x", count: 999_000)
    try PropertyListFile(url: url).write(["deep": .set(deep)])
    try PropertyListFile(url: url).write(["many": .set(many)])
    let read = try #require(try PropertyListFile(url: url).read()).values
    #expect(propertyListValuesEqual(read[PropertyListKey("deep")], deep))
    #expect((read[PropertyListKey("many")] as? [Any])?.count == 999_000)
  }
}
