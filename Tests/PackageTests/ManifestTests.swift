import Foundation
import Testing

/// The manifest as SwiftPM sees it in each place the package can be built from: the root (the
/// toolchain's SwiftSyntax through unsafe flags) and a checked-out dependency (the swift-syntax
/// package, no unsafe flags, which is what lets a consumer depend on a version).
@Suite struct ManifestTests {
  static let packageFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The manifest's JSON from `swift package dump-package` run in `folder`.
  func dumpPackage(in folder: URL, environment: [String: String] = [:]) throws -> (status: Int32, json: [String: Any]?, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "dump-package"]
    process.currentDirectoryURL = folder
    var inherited = ProcessInfo.processInfo.environment
    inherited["OBSERVABLE_DEFAULTS_SWIFT_SYNTAX"] = nil
    process.environment = inherited.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    return (process.terminationStatus, json, errorText)
  }

  /// A copy of the manifest where SwiftPM puts a dependency it checked out.
  func checkout() throws -> URL { try copy(at: ".build/checkouts/observable-defaults") }

  /// A copy of the manifest as a root package.
  func root() throws -> URL { try copy(at: "observable-defaults") }

  /// A copy of the manifest in a folder of its own: at `relativePath` below a new temporary
  /// folder. (`swift package` in the package folder itself would wait for the lock that the running
  /// `swift test` holds on `.build`.)
  func copy(at relativePath: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("manifest-\(UUID().uuidString)/\(relativePath)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.packageFolder.appendingPathComponent("Package.swift"),
      to: folder.appendingPathComponent("Package.swift"))
    return folder
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
    let dump = try dumpPackage(in: checkout())
    let json = try #require(dump.json, "dump-package failed: \(dump.errors)")
    #expect(swiftSyntaxURLs(json) == ["https://github.com/swiftlang/swift-syntax.git"])
    let targets = targets(json)
    #expect(targets.values.filter(hasUnsafeFlags).map { $0["name"] as? String } == [])
    let plugin = try #require(targets["ObservableDefaultsMacros"])
    #expect(products(of: plugin, from: "swift-syntax") == [
      "SwiftSyntax", "SwiftSyntaxMacros", "SwiftDiagnostics", "_SwiftCompilerPluginMessageHandling",
    ])
  }

  @Test func theRootPackageUsesTheToolchainsSwiftSyntax() throws {
    let dump = try dumpPackage(in: root())
    let json = try #require(dump.json, "dump-package failed: \(dump.errors)")
    #expect(swiftSyntaxURLs(json) == [])
    let targets = targets(json)
    let unsafe = targets.values.filter(hasUnsafeFlags).compactMap { $0["name"] as? String }.sorted()
    #expect(unsafe == ["MacroTests", "ObservableDefaultsMacros"])
  }

  @Test func theEnvironmentChoosesThePackageInTheRoot() throws {
    let dump = try dumpPackage(in: root(), environment: ["OBSERVABLE_DEFAULTS_SWIFT_SYNTAX": "package"])
    let json = try #require(dump.json, "dump-package failed: \(dump.errors)")
    #expect(swiftSyntaxURLs(json) == ["https://github.com/swiftlang/swift-syntax.git"])
    #expect(targets(json).values.filter(hasUnsafeFlags).isEmpty)
  }

  @Test func anUnknownChoiceStopsTheManifestWithAMessage() throws {
    let dump = try dumpPackage(in: checkout(), environment: ["OBSERVABLE_DEFAULTS_SWIFT_SYNTAX": "network"])
    #expect(dump.status != 0)
    #expect(dump.errors.contains("OBSERVABLE_DEFAULTS_SWIFT_SYNTAX is \"network\"; use \"toolchain\" or \"package\"."))
  }
}
