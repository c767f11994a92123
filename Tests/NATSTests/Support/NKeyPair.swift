import Foundation
import TestSupport

/// A fresh NKey user (ed25519) for a test: its public key (`U…`) and a seed file (`SU…`, mode
/// 0600), encoded as NATS encodes NKeys (base32 of a prefix byte, the 32 key bytes and their
/// CRC-16/XMODEM, little-endian). The key pair comes from Python's `cryptography` (ed25519),
/// the encoding from the NKeys specification (github.com/nats-io/nkeys).
struct NKeyPair {
  let publicKey: String
  let seedFile: URL

  struct Unavailable: Error, CustomStringConvertible {
    let description: String
  }

  /// Generates a pair and writes the seed to `seedFile`.
  init(seedFile: URL) throws {
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
      user, seed_prefix = 20 << 3, 18 << 3
      fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
      os.write(fd, encode(bytes([seed_prefix | user >> 5, (user & 31) << 3]) + seed).encode())
      os.close(fd)
      print(encode(bytes([user]) + public))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, seedFile.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Unavailable(description: "generating an NKey with python3-cryptography: \(text)")
    }
    publicKey = text.trimmingCharacters(in: .whitespacesAndNewlines)
    self.seedFile = seedFile
  }
}
