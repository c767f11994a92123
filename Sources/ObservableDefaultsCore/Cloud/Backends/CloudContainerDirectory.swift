public import Foundation

/// Where ``EmbeddedCloudBackend`` keeps containers by default, and the default container and
/// account names.
///
/// A container's data for one account is the file
/// `<url>/<container>/<account>/store.plist`.
public enum CloudContainerDirectory {
  /// `$XDG_DATA_HOME/ObservableDefaults/CloudContainers` when `XDG_DATA_HOME` is an absolute path,
  /// else `$HOME/.local/share/ObservableDefaults/CloudContainers` (the XDG Base Directory rule).
  ///
  /// Read from the environment at each call.
  public static var url: URL {
    HomeFolder.baseFolder(
      "XDG_DATA_HOME", fallback: ".local/share",
      environment: ProcessEnvironment.values(of: ["XDG_DATA_HOME", "HOME"])
    ).appendingPathComponent("ObservableDefaults/CloudContainers", isDirectory: true)
  }

  /// The container of this program: the main bundle's identifier, else the program's name (as
  /// ``PreferencesDirectory/standardSuiteName``).
  public static var defaultContainer: String {
    PreferencesDirectory.standardSuiteName
  }

  /// The environment variable naming the account: `OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT`.
  public static let accountVariable = "OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT"

  /// `$OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT` when set and not empty, else `default`.
  public static var defaultAccount: String {
    let value = ProcessEnvironment.value(accountVariable) ?? ""
    return value.isEmpty ? "default" : value
  }

  /// `name` usable as one folder name: `/` becomes `_`, and an empty name, `.` or `..` becomes
  /// `_` followed by it.
  static func folderName(_ name: String) -> String {
    let safe = name.replacingOccurrences(of: "/", with: "_")
    return safe.isEmpty || safe == "." || safe == ".." ? "_" + safe : safe
  }
}
