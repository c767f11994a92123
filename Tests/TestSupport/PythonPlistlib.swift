import Foundation

/// Python's `plistlib`, the outside referee for property-list files: it keeps keys that differ
/// only in Unicode normalization apart, as CoreFoundation and Apple's Foundation do.
public enum PythonPlistlib {
  /// `é` as one scalar (U+00E9, NFC).
  public static let composed = "\u{E9}"
  /// `é` as `e` and a combining acute accent (U+0065 U+0301, NFD): equal to ``composed`` as a
  /// Swift `String`, another key in a property-list file.
  public static let decomposed = "e\u{301}"

  /// Writes a dictionary of string values to `url` with `plistlib.dump` (binary or XML); keys and
  /// values are given as lists of Unicode scalar values, so nothing on the way normalizes them.
  ///
  /// - Throws: `ChildProcess`'s errors; a python failure is a thrown description.
  public static func write(_ entries: [(key: String, value: String)], to url: URL, binary: Bool)
    throws
  {
    let items = entries.map { "(\(scalars($0.key)), \(scalars($0.value)))" }
    let script = """
      import plistlib,sys
      t=lambda c:''.join(map(chr,c))
      d={t(k):t(v) for k,v in [\(items.joined(separator: ","))]}
      plistlib.dump(d,open(sys.argv[1],'wb'),fmt=plistlib.FMT_\(binary ? "BINARY" : "XML"))
      """
    try run(script, url)
  }

  /// Writes a dictionary holding one dictionary of string values under `key` (and `other`
  /// holding `"o"`) to `url` with `plistlib.dump`; keys and values are given as lists of Unicode
  /// scalar values, as in ``write(_:to:binary:)``.
  ///
  /// - Throws: `ChildProcess`'s errors; a python failure is a thrown description.
  public static func write(
    nested entries: [(key: String, value: String)], under key: String, to url: URL, binary: Bool
  ) throws {
    let items = entries.map { "(\(scalars($0.key)), \(scalars($0.value)))" }
    let script = """
      import plistlib,sys
      t=lambda c:''.join(map(chr,c))
      d={t(\(scalars(key))):{t(k):t(v) for k,v in [\(items.joined(separator: ","))]},'other':'o'}
      plistlib.dump(d,open(sys.argv[1],'wb'),fmt=plistlib.FMT_\(binary ? "BINARY" : "XML"))
      """
    try run(script, url)
  }

  /// The dictionary under `key` in the top dictionary of `url` as `plistlib.load` reads it:
  /// python's `ascii()` of its items sorted by key, as ``read(_:)`` gives the top dictionary's.
  ///
  /// - Throws: `ChildProcess`'s errors; a python failure (a file it refuses, no such
  ///   dictionary) is thrown.
  public static func read(_ url: URL, nestedUnder key: String) throws -> String {
    try run(
      """
      import plistlib,sys
      t=lambda c:''.join(map(chr,c))
      print(ascii(sorted(plistlib.load(open(sys.argv[1],'rb'))[t(\(scalars(key)))].items())))
      """, url)
  }

  /// The top dictionary of `url` as `plistlib.load` reads it: python's `ascii()` of its items
  /// sorted by key, nested dictionaries' keys sorted too (a file's order of keys is not its
  /// content), for example `[('e\u0301', 'b'), ('\xe9', 'a')]` (plain ASCII, so comparing it
  /// compares the exact scalars).
  ///
  /// - Throws: `ChildProcess`'s errors; a python failure (a file it refuses) is thrown.
  public static func read(_ url: URL) throws -> String {
    try run(
      """
      import plistlib,sys
      def c(v):
        if isinstance(v,dict): return {k:c(v[k]) for k in sorted(v)}
        if isinstance(v,list): return [c(x) for x in v]
        return v
      print(ascii(sorted(c(plistlib.load(open(sys.argv[1],'rb'))).items())))
      """, url)
  }

  /// The top dictionary of `url` as `plistlib.load` reads it, as strings: each string value
  /// itself, any other value as python's `repr()` (a reader independent of this package and of
  /// Foundation). Keys that differ only in Unicode normalization meet in the returned dictionary;
  /// ``read(_:)`` keeps them apart.
  ///
  /// - Throws: `ChildProcess`'s errors; a python failure (a file it refuses) is thrown.
  public static func strings(_ url: URL) throws -> [String: String] {
    let output = try run(
      """
      import json, plistlib, sys
      with open(sys.argv[1], 'rb') as file:
          values = plistlib.load(file)
      print(json.dumps({k: v if isinstance(v, str) else repr(v) for k, v in values.items()}))
      """, url)
    return try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
  }

  private static func scalars(_ text: String) -> String {
    "[" + text.unicodeScalars.map { String($0.value) }.joined(separator: ",") + "]"
  }

  @discardableResult
  private static func run(_ script: String, _ url: URL) throws -> String {
    let result = try ChildProcess.runCommand("python3", ["-c", script, url.path])
    guard result.status == 0 else { throw Failure(description: result.error) }
    return result.output.trimmingCharacters(in: .newlines)
  }

  /// What python printed when it failed.
  public struct Failure: Error, CustomStringConvertible {
    /// Python's standard error.
    public let description: String
  }
}
