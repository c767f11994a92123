import Foundation

/// A fresh NKey (ed25519) for a test: its public key (`U…` for a user, `A…` for an account,
/// `O…` for an operator) and a seed file (`SU…`, `SA…`, `SO…`, mode 0600), encoded as NATS
/// encodes NKeys (base32 of a prefix byte, the 32 key bytes and their CRC-16/XMODEM,
/// little-endian; a seed's two prefix bytes hold the seed prefix and the kind). The key pair
/// comes from Python's `cryptography` (ed25519), the encoding from the NKeys specification
/// (github.com/nats-io/nkeys).
struct NKeyPair {
  /// Who holds the key; the raw value is the letter's index in base32 (its prefix byte >> 3).
  enum Kind: UInt8 {
    case `operator` = 14
    case account = 0
    case user = 20

    /// The `type` of the JWT whose subject the key is (`operator`, `account`, `user`).
    var claimType: String { "\(self)" }
  }

  let kind: Kind
  let publicKey: String
  let seedFile: URL

  /// Generates a pair of `kind` and writes the seed to `seedFile`.
  init(_ kind: Kind = .user, seedFile: URL) throws {
    let script = """
      import base64, os, sys
      from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
      from cryptography.hazmat.primitives import serialization
      def crc16(data):
          crc = 0
          for byte in data:
              crc ^= byte << 8
              for _ in range(8):
                  crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
          return crc.to_bytes(2, "little")
      def encode(raw):
          return base64.b32encode(raw + crc16(raw)).decode().rstrip("=")
      seed = os.urandom(32)
      public = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
          serialization.Encoding.Raw, serialization.PublicFormat.Raw)
      kind, seed_prefix = int(sys.argv[2]) << 3, 18 << 3
      fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
      os.write(fd, encode(bytes([seed_prefix | kind >> 5, (kind & 31) << 3]) + seed).encode())
      os.close(fd)
      print(encode(bytes([kind]) + public))
      """
    publicKey = try PythonScript.run(
      script, [seedFile.path, "\(kind.rawValue)"], doing: "generating an NKey")
    self.kind = kind
    self.seedFile = seedFile
  }

  private init(kind: Kind, publicKey: String, seedFile: URL) {
    (self.kind, self.publicKey, self.seedFile) = (kind, publicKey, seedFile)
  }

  /// This public key with `other`'s seed: what signs a forged JWT naming this key its issuer.
  func forged(withSeedOf other: NKeyPair) -> NKeyPair {
    NKeyPair(kind: kind, publicKey: publicKey, seedFile: other.seedFile)
  }

  /// The seed (`S…`), as the seed file holds it.
  func seed() throws -> String {
    try String(contentsOf: seedFile, encoding: .utf8)
  }
}
