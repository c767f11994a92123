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
