/// Where a container's records live in NATS: one JetStream key-value bucket per container and
/// account, one key per store key.
///
/// - **Bucket**: `<container>-<account>`, each part encoded so that only `A–Z a–z 0–9` stay as
///   they are and every other UTF-8 byte becomes `_` and two uppercase hex digits (`.` → `_2E`,
///   `-` → `_2D`). NATS allows only `A–Z a–z 0–9 _ -` in bucket names; the encoding is reversible
///   and `-` appears only between the parts, so `a-b`/`c` and `a`/`b-c` never share a bucket. The
///   bucket's stream is `KV_<bucket>` and its subjects `$KV.<bucket>.<key>`.
/// - **Key**: every UTF-8 byte outside `A–Z a–z 0–9 - _` becomes `=` and two uppercase hex
///   digits (`.` → `=2E`, `/` → `=2F`, `=` → `=3D`); the empty key is `=`. NATS keys allow only
///   `- / _ = . A–Z a–z 0–9` and use `.` to separate subject tokens, so an encoded key is always
///   one token and `>` or `*` in a store key cannot act as a wildcard.
///
/// Why a bucket per account and not a key prefix: JetStream holds a stream's limits
/// (`MaxBytes`, the value size) per bucket, so each account's store gets its own quota from the
/// server, as Apple's store has one per person; and the NATS account (the tenant, from the
/// credentials) isolates the buckets of different people.
struct NATSKeyLayout: Sendable, Hashable {
  /// The bucket's name.
  let bucket: String

  init(container: String, account: String) {
    bucket =
      Self.encode(container, escape: "_", keeping: "") + "-"
      + Self.encode(account, escape: "_", keeping: "")
  }

  /// The JetStream stream that holds the bucket.
  var stream: String { "KV_" + bucket }

  /// The subject of every key of the bucket: `$KV.<bucket>.>`.
  var allSubjects: String { "$KV.\(bucket).>" }

  /// The subject of a store key.
  func subject(_ key: String) -> String {
    "$KV.\(bucket).\(Self.key(key))"
  }

  /// The store key of a subject of this bucket, or nil for any other subject.
  func storeKey(subject: String) -> String? {
    natsKey(subject: subject).flatMap(Self.storeKey)
  }

  /// The NATS key of a subject of this bucket (what follows `$KV.<bucket>.`), or nil for a
  /// subject of another bucket.
  func natsKey(subject: String) -> String? {
    let prefix = "$KV.\(bucket)."
    guard subject.hasPrefix(prefix) else { return nil }
    return String(subject.dropFirst(prefix.count))
  }

  /// The NATS key of the marker a bucket gets when it is opened empty (see ``NATSBucket``): it
  /// holds a `.`, which no encoded store key does.
  static let markerKey = "od.bucket"

  /// The NATS key of a store key.
  static func key(_ key: String) -> String {
    key.isEmpty ? "=" : encode(key, escape: "=", keeping: "-_")
  }

  /// The store key of a NATS key, or nil when it is not the encoding of a store key: decoding
  /// is the exact inverse of ``key(_:)``, so a NATS key that another client wrote in any other
  /// form (lowercase hex `a=2eb`, a sign `x=-0y`, an escaped letter `=41`) names no store key
  /// and cannot stand for one that has its own canonical NATS key.
  static func storeKey(_ natsKey: String) -> String? {
    guard let decoded = decodedKey(natsKey), key(decoded) == natsKey else { return nil }
    return decoded
  }

  /// The bytes of a NATS key with each `=` and two hex digits read as one byte, as UTF-8 text;
  /// nil when that fails.
  private static func decodedKey(_ natsKey: String) -> String? {
    guard natsKey != "=" else { return "" }
    guard natsKey.unicodeScalars.allSatisfy({ encodedKeyCharacters.contains($0) }) else {
      return nil
    }
    var bytes: [UInt8] = []
    var iterator = natsKey.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "=") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next(), let low = iterator.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// The characters of an encoded key.
  private static let encodedKeyCharacters = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=".unicodeScalars)

  /// `text` with every UTF-8 byte outside `A–Z a–z 0–9` and `keeping` replaced by `escape` and
  /// two uppercase hex digits.
  private static func encode(_ text: String, escape: Character, keeping: String) -> String {
    var encoded = ""
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar)
        || ("A"..."Z").contains(scalar) || keeping.unicodeScalars.contains(scalar)
      {
        encoded.unicodeScalars.append(scalar)
      } else {
        encoded.append(escape)
        encoded += String(byte >> 4, radix: 16, uppercase: true)
        encoded += String(byte & 0xF, radix: 16, uppercase: true)
      }
    }
    return encoded
  }
}
