import Foundation
import TestSupport
import Testing

/// The manifest as SwiftPM sees it in each place the package can be built from: the root (the
/// toolchain's SwiftSyntax through unsafe flags) and a checked-out dependency (the swift-syntax
/// package, no unsafe flags, which is what lets a consumer depend on a version).
@Suite struct ManifestTests {
  static let packageFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Where SwiftPM puts a dependency it checked out.
  static let checkout = ".build/checkouts/observable-defaults"

  /// A root package's folder.
  static let root = "observable-defaults"

  /// The manifest's JSON from `swift package dump-package`, run on a copy of the manifest at
  /// `relativePath` below a new temporary folder, removed afterwards. (`swift package` in the
  /// package folder itself would wait for the lock that the running `swift test` holds on
  /// `.build`.)
  func dumpPackage(
    at relativePath: String, environment: [String: String] = [:]
  ) throws -> (status: Int32, json: [String: Any]?, errors: String) {
    let temporary = try TemporaryFolder(prefix: "manifest")
    defer { temporary.remove() }
    let folder = temporary.file(relativePath)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.packageFolder.appendingPathComponent("Package.swift"),
      to: folder.appendingPathComponent("Package.swift"))
    var variables: [String: String?] = [
      "OBSERVABLE_DEFAULTS_SWIFT_SYNTAX": nil, "TMPDIR": try temporary.programsTemporaryFolder(),
    ]
    for (name, value) in environment { variables[name] = value }
    let result = try ChildProcess.runCommand(
      "swift", ["package", "dump-package"], environment: variables, in: folder)
    let json = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    return (result.status, json, result.error)
  }

  func targets(_ json: [String: Any]) -> [String: [String: Any]] {
    let list = json["targets"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
  }

  /// Whether a target has any `unsafeFlags` setting.
  func hasUnsafeFlags(_ target: [String: Any]) -> Bool {
    let settings = target["settings"] as? [[String: Any]] ?? []
    return settings.contains { ($0["kind"] as? [String: Any])?["unsafeFlags"] != nil }
  }

  /// The product names a target takes from the package `package`.
  func products(of target: [String: Any], from package: String) -> [String] {
    (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
      guard let product = dependency["product"] as? [Any?], product.count > 1,
        product[1] as? String == package
      else { return nil }
      return product[0] as? String
    }
  }

  func swiftSyntaxURLs(_ json: [String: Any]) -> [String] {
    (json["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
      let control = (dependency["sourceControl"] as? [[String: Any]])?.first
      let remote = ((control?["location"] as? [String: Any])?["remote"] as? [[String: Any]])?.first
      return remote?["urlString"] as? String
    }
  }

  @Test func aCheckedOutDependencyUsesTheSwiftSyntaxPackageAndNoUnsafeFlags() throws {
    let dump = try dumpPackage(at: Self.checkout)
    let json = try #require(dump.json, "dump-package failed: \(dump.errors)")
    #expect(swiftSyntaxURLs(json) == ["https://github.com/swiftlang/swift-syntax.git"])
    let targets = targets(json)
    #expect(targets.values.filter(hasUnsafeFlags).map { $0["name"] as? String } == [])
    let implementation = try #require(targets["ObservableDefaultsMacroImplementation"])
    #expect(
      products(of: implementation, from: "swift-syntax") == [
        "SwiftSyntax", "SwiftSyntaxBuilder", "SwiftSyntaxMacros", "SwiftDiagnostics",
      ])
    let plugin = try #require(targets["ObservableDefaultsMacros"])
    #expect(
      products(of: plugin, from: "swift-syntax") == [
        "SwiftSyntaxMacros", "_SwiftCompilerPluginMessageHandling",
      ])
  }

  @Test func theRootPackageUsesTheToolchainsSwiftSyntax() throws {
    let dump = try dumpPackage(at: Self.root)
    let json = try #require(dump.json, "dump-package failed: \(dump.errors)")
    #expect(swiftSyntaxURLs(json) == [])
    let targets = targets(json)
    let unsafe = targets.values.filter(hasUnsafeFlags).compactMap { $0["name"] as? String }.sorted()
    #expect(
      unsafe == ["MacroTests", "ObservableDefaultsMacroImplementation", "ObservableDefaultsMacros"])
  }

  @Test func theEnvironmentChoosesThePackageInTheRoot() throws {
    let dump = try dumpPackage(
      at: Self.root, environment: ["OBSERVABLE_DEFAULTS_SWIFT_SYNTAX": "package"])
    let json = try #require(dump.json, "dump-package failed: \(dump.errors)")
    #expect(swiftSyntaxURLs(json) == ["https://github.com/swiftlang/swift-syntax.git"])
    #expect(targets(json).values.filter(hasUnsafeFlags).isEmpty)
  }

  @Test func anUnknownChoiceStopsTheManifestWithAMessage() throws {
    let dump = try dumpPackage(
      at: Self.checkout, environment: ["OBSERVABLE_DEFAULTS_SWIFT_SYNTAX": "network"])
    #expect(dump.status != 0)
    #expect(
      dump.errors.contains(
        "OBSERVABLE_DEFAULTS_SWIFT_SYNTAX is \"network\"; use \"toolchain\" or \"package\"."))
  }
}
