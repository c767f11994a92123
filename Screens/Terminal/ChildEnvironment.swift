import Foundation

/// The environment of the programs the editor starts (`$VISUAL`, `$EDITOR`): this process's,
/// without the package's secrets. A variable goes when its name starts with
/// `OBSERVABLE_DEFAULTS_` and ends with `PASSWORD`, `SECRET`, `TOKEN` or `KEY` — it holds a
/// password (`OBSERVABLE_DEFAULTS_ETCD_PASSWORD`, see `EtcdCredentials.passwordVariable`), a
/// token or a key itself. Variables naming a file (`…_CREDENTIALS_FILE`, `…_KEY_FILE`) hold a
/// path, whose file is protected by its own mode, and stay, as does the user name.
enum ChildEnvironment {
  /// `environment` without the secret variables.
  static func withoutSecrets(_ environment: [String: String]) -> [String: String] {
    environment.filter { name, _ in !isSecret(name) }
  }

  /// Whether `name` is a variable that holds a secret of the package.
  static func isSecret(_ name: String) -> Bool {
    name.hasPrefix("OBSERVABLE_DEFAULTS_")
      && ["PASSWORD", "SECRET", "TOKEN", "KEY"].contains { name.hasSuffix($0) }
  }
}
