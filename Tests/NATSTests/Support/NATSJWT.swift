import Foundation

/// Issues NATS JWTs (nats-io/jwt v2) for the operator-mode tests: base64url without padding of
/// the header `{"typ":"JWT","alg":"ed25519-nkey"}`, of the claims, and of the issuer's ed25519
/// signature of `header.claims`. The claims are `iat`, `iss` (the issuer's public key), `name`,
/// `sub` (the subject's public key), `jti` (base32 without padding of the SHA-512/256 of the
/// JSON of those four, as nats-io/jwt hashes its claims data) and `nats`: the kind's fields
/// with `type` and `version` 2.
enum NATSJWT {
  /// A JWT naming `subject` (`name`), signed by `issuer`'s seed, with the `nats` fields `nats`.
  static func issue(
    for subject: NKeyPair, name: String, by issuer: NKeyPair, nats: [String: Any] = [:]
  ) throws -> String {
    var fields = nats
    (fields["type"], fields["version"]) = (subject.kind.claimType, 2)
    let json = String(
      decoding: try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys),
      as: UTF8.self)
    let script = """
      import base64, hashlib, json, sys, time
      from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
      seed_file, issuer, subject, name, nats = sys.argv[1:6]
      seed = open(seed_file).read().strip()
      key = Ed25519PrivateKey.from_private_bytes(base64.b32decode(seed + "=" * (-len(seed) % 8))[2:34])
      def compact(value):
          return json.dumps(value, separators=(",", ":")).encode()
      def b64(data):
          return base64.urlsafe_b64encode(data).decode().rstrip("=")
      claims = {"iat": int(time.time()), "iss": issuer, "name": name, "sub": subject}
      digest = hashlib.new("sha512_256", compact(claims)).digest()
      claims["jti"] = base64.b32encode(digest).decode().rstrip("=")
      claims["nats"] = json.loads(nats)
      signed = b64(compact({"typ": "JWT", "alg": "ed25519-nkey"})) + "." + b64(compact(claims))
      print(signed + "." + b64(key.sign(signed.encode())))
      """
    return try PythonScript.run(
      script, [issuer.seedFile.path, issuer.publicKey, subject.publicKey, name, json],
      doing: "issuing a NATS JWT")
  }
}
