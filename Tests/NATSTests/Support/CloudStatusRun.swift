import Foundation
import TestSupport

/// `settings-editor cloud status` (built beside the test bundle) as a program of a device of
/// `user` on `servers` would run it, with everything else of its environment its own: its exit
/// status and what it printed.
func cloudStatus(servers: [String], user: NATSTestCluster.User) throws -> (
  status: Int32, output: String
) {
  let folder = try TemporaryFolder(prefix: "nats-cloud-status")
  defer { folder.remove() }
  var variables = programEnvironment(in: folder)
  variables["OBSERVABLE_DEFAULTS_NATS_SERVERS"] = servers.joined(separator: ",")
  variables["OBSERVABLE_DEFAULTS_NATS_USER"] = user.name
  variables["OBSERVABLE_DEFAULTS_NATS_PASSWORD"] = user.password
  let result = try ChildProcess.run(settingsEditor, ["cloud", "status"], environment: variables)
  return (result.status, result.output)
}

/// `settings-editor`, built beside the test bundle.
let settingsEditor = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  .deletingLastPathComponent().appendingPathComponent("settings-editor")
