import Foundation
import TestSupport

/// Python's `plistlib` refused a file: what it printed.
struct PlistlibRefusal: Error, CustomStringConvertible {
  let description: String
}

/// Reads a property-list file with Python's `plistlib`, a reader independent of this package and
/// of Foundation: its top-level strings (other values as Python's `repr`).
///
/// - Throws: ``PlistlibRefusal`` with Python's error when `plistlib` cannot read the file.
func plistlibRead(_ url: URL) throws -> [String: String] {
  let script = """
    import json, plistlib, sys
    with open(sys.argv[1], 'rb') as file:
        values = plistlib.load(file)
    print(json.dumps({k: v if isinstance(v, str) else repr(v) for k, v in values.items()}))
    """
  let result = try ChildProcess.runCommand("python3", ["-c", script, url.path])
  guard result.status == 0 else { throw PlistlibRefusal(description: result.error) }
  return try JSONDecoder().decode([String: String].self, from: Data(result.output.utf8))
}
