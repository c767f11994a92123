import Foundation

/// Checks the bytes of a binary property list before they are read, so that what a reader
/// would crash on, expand without bound or silently misread is refused with a reason instead.
///
/// The one entry point is ``validate(_:limits:)``, called by ``PropertyListFile`` on every binary
/// byte sequence it turns into values (suites, files opened by path, re-reads after a change,
/// cloud containers, imports) and by the cloud record decoder. Text property lists (XML,
/// OpenStep) are checked by their readers as they read them (``PropertyListText``).
///
/// What is refused: a trailer, offset or object reference outside the file; an object that
/// contains itself; sets, ordered sets, UIDs (keyed-archiver references), null and fill objects,
/// unknown markers — none of which a preferences file can hold (Apple's
/// `PropertyListSerialization` documents the types: string, number, Boolean, date, data, array,
/// dictionary); dictionary keys that are not strings; 16-byte integers outside 0…2⁶⁴−1
/// (Foundation keeps only their low 8 bytes); non-finite dates; ASCII strings with bytes above
/// 0x7F and UTF-16 strings with unpaired surrogates (Foundation would replace characters); and
/// any file beyond ``PropertyListLimits`` (nesting depth, objects counted each time they are
/// referenced, string and data bytes counted the same way).
enum PropertyListValidator {
  /// Throws when `data` must not be read.
  ///
  /// - Parameters:
  ///   - data: The bytes of a binary property-list file (`bplist…`).
  ///   - limits: The bounds of the work one file may ask for.
  /// - Throws: ``PropertyListRejection`` with the reason, for people.
  static func validate(_ data: Data, limits: PropertyListLimits = .preferences)
    throws(PropertyListRejection)
  {
    do {
      try data.withUnsafeBytes { bytes in
        guard bytes.starts(with: "bplist".utf8) else {
          throw PropertyListRejection(reason: "it is not a binary property list")
        }
        var validator = try BinaryPropertyListValidator(bytes: bytes, limits: limits)
        try validator.validate()
      }
    } catch let rejection as PropertyListRejection {
      throw rejection
    } catch {
      throw PropertyListRejection(reason: "\(error)")
    }
  }
}

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
