import Foundation
import ObservableDefaultsTesting

/// The environment of a program a test runs: its folders (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`,
/// `XDG_STATE_HOME`) in `folder`, none of this process's `OBSERVABLE_DEFAULTS_` variables,
/// `extra` over it, and everything else of this process's environment its own.
public func programEnvironment(in folder: TemporaryFolder, adding extra: [String: String] = [:])
  -> [String: String?]
{
  var variables: [String: String?] = [:]
  for name in ProcessInfo.processInfo.environment.keys where name.hasPrefix("OBSERVABLE_DEFAULTS_")
  {
    variables[name] = .some(nil)
  }
  for name in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"] {
    variables[name] = folder.file(name).path
  }
  for (name, value) in extra { variables[name] = value }
  return variables
}
