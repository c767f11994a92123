import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// Keys that differ only in Unicode normalization inside a dictionary value (`é` as U+00E9 and
/// as `e` U+0301) are two keys of that dictionary, as in the file and python's `plistlib`: a
/// suite keeps both through reads and writes; the `String`-keyed API hands one of them.
@Suite(.serialized) struct ExactNestedKeyTests {
  private static let composed = PythonPlistlib.composed
  private static let decomposed = PythonPlistlib.decomposed
  /// What `plistlib` reads of the dictionary written by ``suite(in:binary:)``.
  private static let bothForms = #"[('e\u0301', 'decomposed'), ('\xe9', 'composed')]"#

  /// A suite file holding `m`: a dictionary of both forms (the composed one holding
  /// `composed`, the decomposed one `decomposed`), and `other`, written by `plistlib`.
  private func suite(in folder: TemporaryFolder, binary: Bool) throws -> URL {
    let url = folder.file(binary ? "binary.plist" : "xml.plist")
    try PythonPlistlib.write(
      nested: [(Self.composed, "composed"), (Self.decomposed, "decomposed")], under: "m",
      to: url, binary: binary)
    return url
  }

  @Test(arguments: [true, false])
  func writingAnotherKeyKeepsBothNestedKeys(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = try suite(in: folder, binary: binary)
      // Two writes of `other`, each through an instance of its own.
      for value in ["x", "y"] {
        let defaults = PropertyListDefaults(fileURL: url)
        defaults.set(value, forKey: "other")
        try defaults.flush()
        #expect(try PythonPlistlib.read(url, nestedUnder: "m") == Self.bothForms, "\(value)")
      }
    }
  }

  @Test(arguments: [true, false])
  func theStoredDictionaryWrittenUnderAnotherKeyKeepsBothKeys(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = try suite(in: folder, binary: binary)
      let defaults = PropertyListDefaults(fileURL: url)
      let stored = try #require(defaults.persistentValue(forKey: "m") as? [PropertyListKey: Any])
      #expect(stored.mapValues { $0 as? String } == Self.expected)
      defaults.set(stored, forKey: "copy")
      try defaults.flush()
      #expect(try PythonPlistlib.read(url, nestedUnder: "copy") == Self.bothForms)
      #expect(try PythonPlistlib.read(url, nestedUnder: "m") == Self.bothForms)
    }
  }

  /// A whole new XML file (Foundation's encoder, which keys by `String`) holds both nested keys.
  @Test func aNewXMLFileHoldsBothNestedKeys() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("new.plist")
      var nested: [PropertyListKey: Any] = [:]
      nested[PropertyListKey(Self.composed)] = "composed"
      nested[PropertyListKey(Self.decomposed)] = "decomposed"
      let value: [String: Any] = ["inner": [nested] as [Any]]
      _ = try PropertyListFile(url: url).apply(["m": .set(value)])
      let script =
        #"import plistlib,sys; print(ascii(sorted(plistlib.load(open(sys.argv[1],'rb'))['m']['inner'][0].items())))"#
      let result = try ChildProcess.runCommand("python3", ["-c", script, url.path])
      #expect(result.output == Self.bothForms + "\n", "\(result.error)")
      let read = try PropertyListFile(url: url).read()?.values["m"]
      let inner = (read as? [String: Any])?["inner"] as? [Any]
      #expect(
        (inner?.first as? [PropertyListKey: Any])?.mapValues { $0 as? String } == Self.expected)
    }
  }

  /// `object(forKey:)` and `dictionary(forKey:)` hand a `[String: Any]`, which holds the key
  /// first in Unicode scalar order (the decomposed one); the file keeps both.
  @Test(arguments: [true, false])
  func theStringKeyedAPIGivesTheFirstInScalarOrder(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = try suite(in: folder, binary: binary)
      let defaults = PropertyListDefaults(fileURL: url)
      let handed = defaults.dictionary(forKey: "m")
      #expect(handed?.count == 1)
      #expect(handed?[Self.decomposed] as? String == "decomposed")
      #expect((defaults.dictionaryRepresentation()["m"] as? [String: Any])?.count == 1)
      #expect(try PythonPlistlib.read(url, nestedUnder: "m") == Self.bothForms)
    }
  }

  private static var expected: [PropertyListKey: String] {
    [PropertyListKey(composed): "composed", PropertyListKey(decomposed): "decomposed"]
  }
}
