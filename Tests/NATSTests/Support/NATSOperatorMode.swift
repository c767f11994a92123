import Foundation

/// Decentralized authentication (operator mode) for a test server, made fresh in a folder: an
/// operator, its system account (`SYS`) and one tenant account with JetStream, their JWTs
/// preloaded into the server's memory resolver (``serverConfiguration``), and users with
/// `.creds` files (``user(_:of:)``).
struct NATSOperatorMode {
  /// A user: its NKey, and its `.creds` file (the user JWT and the NKey seed, mode 0600).
  struct User {
    let key: NKeyPair
    let credsFile: URL
  }

  let folder: URL
  let operatorKey: NKeyPair
  let system: NKeyPair
  /// The account the users land in.
  let tenant: NKeyPair
  /// The account JWTs by public key (the system account's and the tenant's).
  let accounts: [String: String]
  /// A user of the tenant for the cluster's readiness check.
  let readiness: User

  /// Every limit unlimited (-1); `jetStream` adds JetStream's (storage -1 enables it).
  private static func accountLimits(jetStream: Bool) -> [String: Any] {
    var limits: [String: Any] = ["wildcards": true]
    for name in ["subs", "data", "payload", "imports", "exports", "conn", "leaf"] {
      limits[name] = -1
    }
    for name in ["mem_storage", "disk_storage", "streams", "consumer"] where jetStream {
      limits[name] = -1
    }
    return ["limits": limits]
  }

  /// Makes the keys and JWTs in `folder` (the operator's JWT in `operator.jwt`).
  init(folder: URL) throws {
    self.folder = folder
    func key(_ kind: NKeyPair.Kind, _ name: String) throws -> NKeyPair {
      try NKeyPair(kind, seedFile: folder.appendingPathComponent("\(name).nk"))
    }
    operatorKey = try key(.operator, "operator")
    system = try key(.account, "SYS")
    tenant = try key(.account, "tenant")
    try NATSJWT.issue(
      for: operatorKey, name: "tests", by: operatorKey,
      nats: ["system_account": system.publicKey]
    ).write(to: folder.appendingPathComponent("operator.jwt"), atomically: true, encoding: .utf8)
    accounts = [
      system.publicKey: try NATSJWT.issue(
        for: system, name: "SYS", by: operatorKey, nats: Self.accountLimits(jetStream: false)),
      tenant.publicKey: try NATSJWT.issue(
        for: tenant, name: "tenant", by: operatorKey, nats: Self.accountLimits(jetStream: true)),
    ]
    readiness = try Self.user("readiness", of: tenant, in: folder)
  }

  /// The server configuration's trust: the operator's JWT, the system account, and the memory
  /// resolver preloaded with the account JWTs.
  var serverConfiguration: String {
    let preload = accounts.sorted { $0.key < $1.key }.map { "    \($0.key): \"\($0.value)\"" }
    return """
      operator: "\(folder.appendingPathComponent("operator.jwt").path)"
      system_account: \(system.publicKey)
      resolver: MEMORY
      resolver_preload: {
      \(preload.joined(separator: "\n"))
      }
      """
  }

  /// A new user `name` signed by `account` (the tenant when nil; another key makes a user of
  /// an account the server does not know), with its `.creds` file `<name>.creds`.
  func user(_ name: String, of account: NKeyPair? = nil) throws -> User {
    try Self.user(name, of: account ?? tenant, in: folder)
  }

  private static func user(_ name: String, of account: NKeyPair, in folder: URL) throws -> User {
    let key = try NKeyPair(.user, seedFile: folder.appendingPathComponent("\(name).nk"))
    let jwt = try NATSJWT.issue(
      for: key, name: name, by: account,
      nats: ["pub": [:], "sub": [:], "subs": -1, "data": -1, "payload": -1])
    let credsFile = folder.appendingPathComponent("\(name).creds")
    let text = """
      -----BEGIN NATS USER JWT-----
      \(jwt)
      ------END NATS USER JWT------

      ************************* IMPORTANT *************************
      NKEY Seed printed below can be used to sign and prove identity.
      NKEYs are sensitive and should be treated as secrets.

      -----BEGIN USER NKEY SEED-----
      \(try key.seed())
      ------END USER NKEY SEED------

      *************************************************************

      """
    try Data(text.utf8).write(to: credsFile, options: .withoutOverwriting)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: credsFile.path)
    return User(key: key, credsFile: credsFile)
  }
}
