import Foundation

/// Why a property list's bytes were refused before parsing.
struct PropertyListRejection: Error, Equatable {
  /// One sentence for people, e.g. `binary property list: object 1 at byte 11 is a set, which
  /// preferences cannot hold`.
  let reason: String
}

/// The bounds of the work reading one property-list file may ask for.
struct PropertyListLimits: Sendable {
  /// The deepest nesting of arrays and dictionaries (the top-level dictionary is level 1).
  var maximumDepth: Int
  /// The most values in the whole tree, counting a value shared by several references (possible
  /// in a binary property list) once per reference — what Foundation creates when parsing.
  var maximumObjects: Int
  /// The most bytes of strings and data in the whole tree, counted the same way.
  var maximumBytes: Int

  /// The bounds for preferences files: depth 512, 1,000,000 values and 64 MiB of string and data
  /// bytes, or more for a larger file (see ``maximumObjects(inBinaryFileOf:)``) — far above what
  /// a settings file holds (a 100,000-key suite is 200,000 values), far below what would stall a
  /// reader (a 290-byte binary file can otherwise ask for 2⁶⁰ values).
  static let preferences = PropertyListLimits(
    maximumDepth: 512, maximumObjects: 1_000_000, maximumBytes: 64 << 20)

  /// How many values a binary file of `objects` objects may expand to: ``maximumObjects``, or 4
  /// per object when that is more. A valid suite refers to each object about once (a 1,000,000-key
  /// suite: 2,000,000 values from at most 2,000,001 objects); an expansion attack refers to a
  /// few objects many times.
  func maximumObjects(inBinaryFileOf objects: Int) -> Int {
    max(maximumObjects, 4 * objects)
  }

  /// How many string and data bytes a binary file of `size` bytes may expand to:
  /// ``maximumBytes``, or 4 per byte of the file when that is more.
  func maximumBytes(inBinaryFileOf size: Int) -> Int {
    max(maximumBytes, 4 * size)
  }

  /// How many elements an XML file of `size` bytes may hold: ``maximumObjects``, or one per
  /// 8 bytes of the file when that is more. XML cannot refer to an element twice, so its
  /// elements are all in the file (a 1,000,000-key suite has 2,000,000 in about 40 MB).
  func maximumElements(inXMLFileOf size: Int) -> Int {
    max(maximumObjects, size / 8)
  }
}

/// What a property list expands to when it is read: its values, and the bytes of its strings and
/// data, each counted once per reference to it (what a reader creates from a binary file, whose
/// equal scalars are stored once), as ``BinaryPropertyListScanner`` counts them.
struct PropertyListExpansion: Equatable {
  /// Values: every string, number, Boolean, date, data, array, dictionary and dictionary key.
  var values = 0
  /// The bytes of strings (UTF-8 for ASCII ones, UTF-16 for the others) and data.
  var bytes = 0

  static func + (left: Self, right: Self) -> Self {
    Self(values: left.values + right.values, bytes: left.bytes + right.bytes)
  }

  static func - (left: Self, right: Self) -> Self {
    Self(values: left.values - right.values, bytes: left.bytes - right.bytes)
  }
}

extension PropertyListLimits {
  /// Refuses a write whose file its readers would refuse: writers store equal values once, so a
  /// small file can expand past ``maximumObjects`` or ``maximumBytes``, a value can nest past
  /// ``maximumDepth``, and a date can be a time that is not finite (NaN, ±infinity: a binary
  /// file holds it, and the readers here refuse it). The write is refused before it is
  /// acknowledged.
  ///
  /// - Throws: ``PropertyListError`` `.invalidValue(key:)` for the first of `values` (top-level
  ///   values, at depth 2) that holds an object deeper than ``maximumDepth`` (a scalar or a
  ///   dictionary's key too, as the binary reader counts; the XML one counts arrays and
  ///   dictionaries only, so this is the stricter of the two and the same on every path), or a
  ///   date that is not a finite time.
  func checkValues(
    of values: some Sequence<(key: PropertyListKey, value: Any)>, writingTo url: URL
  ) throws {
    for (key, value) in values {
      guard let problem = problem(in: value, at: 2) else { continue }
      let reason =
        switch problem {
        case .tooDeep:
          "it nests arrays and dictionaries deeper than the \(maximumDepth) levels a reader reads"
        case .nonFiniteDate(let seconds):
          "it holds the date \(seconds) s from 2001-01-01T00:00:00Z, not a finite time, which "
            + "a reader refuses"
        }
      throw PropertyListError(
        file: url, kind: .invalidValue(key: key.string), reason: reason + "; nothing was written")
    }
  }

  /// What a reader refuses in a value.
  private enum Problem {
    /// An object deeper than ``maximumDepth``.
    case tooDeep
    /// A date (its seconds from 2001-01-01) that is not a finite time.
    case nonFiniteDate(Double)
  }

  /// What a reader would refuse in `value` at nesting `depth`, the first found: an object
  /// deeper than ``maximumDepth`` (the walk stops there, so it is bounded whatever the value),
  /// or a date that is not a finite time.
  private func problem(in value: Any, at depth: Int) -> Problem? {
    guard depth <= maximumDepth else { return .tooDeep }
    // Canonical values: their exact types, compared as the writers compare them (a cast of each
    // scalar to each container type cost more than the walk).
    let kind = type(of: value)
    if kind == Date.self {
      let seconds = (value as! Date).timeIntervalSinceReferenceDate
      return seconds.isFinite ? nil : .nonFiniteDate(seconds)
    }
    if kind == [Any].self { return problem(inAll: value as! [Any], at: depth + 1) }
    if kind == [PropertyListKey: Any].self {
      return problem(inDictionary: (value as! [PropertyListKey: Any]).values, at: depth)
    }
    if kind == [String: Any].self {
      return problem(inDictionary: (value as! [String: Any]).values, at: depth)
    }
    return nil
  }

  /// What a reader would refuse in a dictionary of `values` at nesting `depth`: its keys and
  /// values are one level deeper.
  private func problem(inDictionary values: some Collection<Any>, at depth: Int) -> Problem? {
    guard !values.isEmpty else { return nil }
    return depth < maximumDepth ? problem(inAll: values, at: depth + 1) : .tooDeep
  }

  /// The first problem of `values`, each at nesting `depth`.
  private func problem(inAll values: some Collection<Any>, at depth: Int) -> Problem? {
    for value in values {
      if let problem = problem(in: value, at: depth) { return problem }
    }
    return nil
  }

  /// Refuses a binary file of `objects` objects and `size` bytes that expands to `expansion`
  /// beyond what a reader of it accepts (``maximumObjects(inBinaryFileOf:)``,
  /// ``maximumBytes(inBinaryFileOf:)``).
  ///
  /// - Parameter keys: The top-level keys the write changes, when known.
  /// - Throws: ``PropertyListError`` as ``FileContents/refusal(of:changing:_:)`` makes it, with
  ///   the count and the limit.
  func checkBinaryFile(
    expandingTo expansion: PropertyListExpansion, objects: Int, size: Int, of url: URL,
    changing keys: [String]?
  ) throws {
    let values = maximumObjects(inBinaryFileOf: objects)
    let bytes = maximumBytes(inBinaryFileOf: size)
    let (count, limit, what) =
      expansion.values > values
      ? (expansion.values, values, "values")
      : (expansion.bytes, bytes, "bytes of strings and data")
    guard count > limit else { return }
    throw FileContents.refusal(
      of: url, changing: keys,
      "would make the file expand to \(count) \(what) when read (each counted once per "
        + "reference), above the \(limit) a reader reads")
  }

  /// Whether a reader accepts a binary file of `objects` objects and `size` bytes that expands
  /// to `expansion`.
  func acceptsBinaryFile(expandingTo expansion: PropertyListExpansion, objects: Int, size: Int)
    -> Bool
  {
    expansion.values <= maximumObjects(inBinaryFileOf: objects)
      && expansion.bytes <= maximumBytes(inBinaryFileOf: size)
  }
}
