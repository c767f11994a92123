import Foundation

extension BinaryPropertyListScanner {
  /// The bytes of the object area that may lie outside the objects a whole scan reaches: half of
  /// the area, and 4 KiB.
  ///
  /// Every writer of the format puts nothing else there (CoreFoundation and Foundation, python's
  /// `plistlib`, ``BinaryPropertyListWriter``); ``BinaryPropertyListSplice`` leaves at most a
  /// quarter of the file and 4 KiB that no reference reaches.
  static func maximumUnreachedBytes(inObjectAreaOf size: Int) -> Int {
    size / 2 + 4096
  }

  /// The value of the top object, every object it reaches checked, and the object area with them
  /// (``requireObjectAreaMostlyReached()``).
  mutating func wholeValue() throws(PropertyListRejection) -> Any {
    let value = try value(topObject, depth: 1)
    try requireObjectAreaMostlyReached()
    return value
  }

  /// Throws unless the objects the whole scan checked (``reachedBytes``) cover the object area
  /// but for ``maximumUnreachedBytes(inObjectAreaOf:)``. Call it once every object the top
  /// object reaches was checked.
  ///
  /// A shorter list written in place over a longer one (`pwrite` without the writers' lock, the
  /// file not yet cut) is followed by the rest of the longer one: its objects, its offset table
  /// and its trailer. Read through that table, the offsets land on the new objects' bytes, and
  /// can parse: inside a long string of one repeated UTF-16 character, each lands on a string of
  /// that one character. Such a file reaches a few bytes of its object area. Refused as
  /// malformed, it is read again after the half-written pauses (``PropertyListFile``), by which
  /// time the writer has cut it.
  ///
  /// A shared object is counted at each reference, so the count never falls short of what is
  /// reached: a file a writer made whole is never refused.
  ///
  /// - Throws: ``PropertyListRejection`` naming the bytes reached and the area's size.
  func requireObjectAreaMostlyReached() throws(PropertyListRejection) {
    let area = tableOffset - 8
    guard area - reachedBytes > Self.maximumUnreachedBytes(inObjectAreaOf: area) else { return }
    throw BinaryPropertyListLayout.rejection(
      "its objects cover \(reachedBytes) of the \(area) bytes before its offset table "
        + "(a shorter list being written in place over a longer one?)")
  }
}
