import Foundation

/// A key of a property-list dictionary, compared and hashed as its exact Unicode scalars (its
/// UTF-8 bytes).
///
/// Swift's `String` compares by canonical equivalence: `"\u{E9}" == "e\u{301}"` is true, so a
/// `[String: Any]` holds one entry where a property-list file holds two. A file, CoreFoundation's
/// `CFDictionary` of `CFString` keys (compared by their UTF-16 code units), Foundation on Apple
/// platforms and python's `plistlib` keep keys that differ only in Unicode normalization apart;
/// so does every dictionary keyed by this type.
///
/// ```swift
/// var values: [PropertyListKey: Any] = [:]
/// values["\u{E9}"] = 1          // é, one scalar
/// values["e\u{301}"] = 2        // e and a combining acute accent
/// values.count                  // 2
/// ```
public struct PropertyListKey: Hashable, Comparable, Sendable, CustomStringConvertible,
  ExpressibleByStringInterpolation
{
  /// The key's text, exactly as stored.
  public let string: String

  /// A key holding `string` exactly.
  ///
  /// - Parameter string: The key's text; no normalization is applied.
  public init(_ string: String) {
    self.string = string
  }

  /// A key holding the literal's text exactly.
  ///
  /// - Parameter value: The key's text.
  public init(stringLiteral value: String) {
    self.string = value
  }

  /// A key holding the interpolated text exactly.
  ///
  /// - Parameter stringInterpolation: The literal's segments.
  public init(stringInterpolation: DefaultStringInterpolation) {
    self.string = String(stringInterpolation: stringInterpolation)
  }

  /// Whether the two keys hold the same Unicode scalars.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    // The same representation (one small string's bytes, or one storage at one count) holds the
    // same scalars: a key looked up by the key it was stored under (a property's key, the
    // dictionary's own key) is equal at once, without the comparisons below (a sixth of a
    // property write's lookup in the write benchmark's profile).
    if lhs.isSameString(as: rhs) { return true }
    // `String`'s `==` (canonical equivalence) is false for most different keys and fast for
    // ASCII: a scan of 10,000 short keys took 3.3 ns a key this way, 15.4 ns with the bytes
    // alone. Equivalent keys are then told apart by their bytes.
    guard lhs.string == rhs.string else { return false }
    let (left, right) = (lhs.string.utf8, rhs.string.utf8)
    guard left.count == right.count else { return false }
    // Native strings are contiguous UTF-8: one memcmp instead of a walk of both views.
    let compared = left.withContiguousStorageIfAvailable { left in
      right.withContiguousStorageIfAvailable { right in
        left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
      }
    }
    return (compared ?? nil) ?? left.elementsEqual(right)
  }

  /// Whether the two keys hold one representation: one small string's bytes, or one string
  /// storage at one count. Such keys hold the same scalars; equal keys built apart (two storages)
  /// are not the same string. Two words compared, no call.
  ///
  /// - Parameter other: Another key.
  /// - Returns: `true` when both hold the same string representation.
  @inline(__always)
  func isSameString(as other: Self) -> Bool {
    unsafeBitCast(string, to: (UInt64, UInt64).self)
      == unsafeBitCast(other.string, to: (UInt64, UInt64).self)
  }

  /// Hashes the key's UTF-8 bytes.
  public func hash(into hasher: inout Hasher) {
    var string = string
    string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// Orders keys by their Unicode scalars (UTF-8 byte order is code point order), the order in
  /// which python's `plistlib` sorts keys; keys that differ only in Unicode normalization get a
  /// fixed order.
  ///
  /// The bytes are compared with `memcmp`: the generic `lexicographicallyPrecedes` of the two
  /// `UTF8View`s took 530 instructions a comparison, 1.26 G of the 5.58 G of
  /// `settings-editor read` printing a 100,000-key suite.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    var (left, right) = (lhs.string, rhs.string)
    return left.withUTF8 { left in
      right.withUTF8 { right in
        let common = min(left.count, right.count)
        let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
        return order != 0 ? order < 0 : left.count < right.count
      }
    }
  }

  /// The key's text.
  public var description: String { string }
}

extension Dictionary where Key == PropertyListKey {
  /// The value stored under exactly `key` (its Unicode scalars, not its canonical equivalence).
  ///
  /// - Parameter key: The key's text.
  public subscript(key: String) -> Value? {
    get { self[PropertyListKey(key)] }
    set { self[PropertyListKey(key)] = newValue }
  }

  /// A dictionary keyed by exact keys holding the entries of `dictionary` (whose `String` keys
  /// are already distinct under canonical equivalence, so nothing is merged).
  ///
  /// - Parameter dictionary: Key text → value.
  public init(exactKeys dictionary: [String: Value]) {
    self.init(minimumCapacity: dictionary.count)
    for (key, value) in dictionary { self[PropertyListKey(key)] = value }
  }

  /// The entries keyed by `String`. Keys that differ only in Unicode normalization are one
  /// `String` key: of those, the entry whose key is first in Unicode scalar order is kept, so
  /// the result does not depend on hashing order. Foundation's `NSDictionary` bridged to
  /// `[String: Any]` on Apple platforms merges them too (which one survives is unspecified there).
  public var stringKeyed: [String: Value] {
    stringKeyed { $0 }
  }

  /// ``stringKeyed`` with each value replaced by `transform` of it, in the same pass.
  package func stringKeyed(transformingValues transform: (Value) -> Value) -> [String: Value] {
    var result: [String: Value] = [:]
    result.reserveCapacity(count)
    for (key, value) in self {
      // One lookup per key; a key met before in another form keeps its `String` key object, so
      // the first in scalar order is put back explicitly.
      let value = transform(value)
      guard let earlier = result.updateValue(value, forKey: key.string) else { continue }
      let index = result.index(forKey: key.string)!
      let earlierKey = result[index].key
      if PropertyListKey(earlierKey) < key {
        result[earlierKey] = earlier
      } else {
        result.remove(at: index)
        result[key.string] = value
      }
    }
    return result
  }
}
