// swift-tools-version: 6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The folder of the SwiftSyntax libraries that ship with the toolchain building this package
/// (`<toolchain>/usr/lib/swift/host`). Macros build against them because no outside package can be
/// fetched here. The toolchain is the one whose `libPackageDescription` runs this manifest.
let swiftSyntaxHost: String = {
  func hostFolder(ofToolchainFile path: String) -> String? {
    guard let range = path.range(of: "/usr/lib/swift/") ?? path.range(of: "/usr/bin/") else { return nil }
    return String(path[..<range.lowerBound]) + "/usr/lib/swift/host"
  }
  var candidates: [String] = []
  if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) {
    candidates += maps.split(separator: "\n").compactMap { line in
      line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
    }.filter { $0.hasSuffix("libPackageDescription.so") }
  }
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  candidates += path.split(separator: ":").map { "\($0)/swift" }
    .filter { FileManager.default.isExecutableFile(atPath: $0) }
    .map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
  for candidate in candidates {
    if let host = hostFolder(ofToolchainFile: candidate),
      FileManager.default.fileExists(atPath: host + "/SwiftSyntaxMacros.swiftmodule")
    {
      return host
    }
  }
  let message = """
    error: ObservableDefaults needs the SwiftSyntax libraries that ship with the Swift toolchain \
    (<toolchain>/usr/lib/swift/host/SwiftSyntaxMacros.swiftmodule), but none was found next to \
    the toolchain running this manifest (looked at: \(candidates.joined(separator: ", "))). \
    Install a full Swift 6 toolchain from swift.org (not a runtime-only package) and put its \
    usr/bin on PATH.\n
    """
  FileHandle.standardError.write(Data(message.utf8))
  exit(1)
}()

let swiftSyntaxLibraries = [
  "SwiftSyntax", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftSyntaxBuilder", "SwiftParser",
  "SwiftBasicFormat", "SwiftOperators", "SwiftIfConfig", "SwiftParserDiagnostics",
  "SwiftSyntaxMacroExpansion", "SwiftCompilerPluginMessageHandling",
]

/// Compiler and linker flags that make the toolchain's SwiftSyntax visible to a target.
let swiftSyntaxSwiftSettings: [SwiftSetting] = [.unsafeFlags(["-I", swiftSyntaxHost])]
let swiftSyntaxLinkerSettings: [LinkerSetting] =
  [.unsafeFlags(["-L", swiftSyntaxHost, "-Xlinker", "-rpath", "-Xlinker", swiftSyntaxHost])]
  + swiftSyntaxLibraries.map { .linkedLibrary($0) }

let package = Package(
  name: "ObservableDefaults",
  products: [
    .library(name: "ObservableDefaults", targets: ["ObservableDefaults"]),
    .library(name: "ObservableDefaultsCore", targets: ["ObservableDefaultsCore"]),
    .library(name: "SettingsEditor", targets: ["SettingsEditor"]),
    .executable(name: "settings-editor", targets: ["settings-editor"]),
  ],
  targets: [
    // Macros: the compiler plugin, built on the toolchain's own SwiftSyntax.
    .macro(
      name: "ObservableDefaultsMacros",
      path: "Sources/Macros",
      swiftSettings: swiftSyntaxSwiftSettings,
      linkerSettings: swiftSyntaxLinkerSettings
    ),
    // Core: property-list files, suites shared between processes, change signals, codecs.
    .target(name: "ObservableDefaultsCore", dependencies: ["CCurl"], path: "Sources/Core"),
    // libcurl (Debian: libcurl4-openssl-dev), the HTTP client of the etcd cloud backend.
    .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
    // The library users import: macro declarations and the runtime their expansions call.
    .target(
      name: "ObservableDefaults",
      dependencies: ["ObservableDefaultsCore", "ObservableDefaultsMacros"],
      path: "Sources/ObservableDefaults"
    ),
    // Editor: ncurses front end (top-level Screens/) and its command-line program.
    .systemLibrary(name: "CNcursesW", path: "Sources/CNcursesW"),
    .target(
      name: "SettingsEditor",
      dependencies: ["ObservableDefaults", "CNcursesW"],
      path: "Screens",
      exclude: ["README-screens.md"]
    ),
    .executableTarget(
      name: "settings-editor",
      dependencies: ["SettingsEditor", "ObservableDefaults"],
      path: "Sources/settings-editor"
    ),
    // A program the library tests start as another process holding settings objects.
    .executableTarget(
      name: "defaults-probe",
      dependencies: ["ObservableDefaults"],
      path: "Tests/Probe"
    ),
    // A program the core tests start as other processes writing one suite.
    .executableTarget(
      name: "core-probe",
      dependencies: ["ObservableDefaultsCore"],
      path: "Tests/CoreProbe"
    ),
    // The performance measures of the README (release build; see Benchmarks/README.md).
    .executableTarget(
      name: "benchmarks",
      dependencies: ["ObservableDefaults", "SettingsEditor"],
      path: "Benchmarks",
      exclude: ["README.md", "measure-build.sh"]
    ),
    .testTarget(
      name: "CoreTests",
      dependencies: ["ObservableDefaultsCore", "core-probe"],
      path: "Tests/CoreTests"
    ),
    .testTarget(
      name: "ObservableDefaultsTests",
      dependencies: ["ObservableDefaults", "defaults-probe"],
      path: "Tests/ObservableDefaultsTests"
    ),
    // Settings classes in a module whose default isolation is the main actor.
    .testTarget(
      name: "MainActorTests",
      dependencies: ["ObservableDefaults"],
      path: "Tests/MainActorTests",
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    .testTarget(
      name: "MacroTests",
      dependencies: ["ObservableDefaultsMacros"],
      path: "Tests/MacroTests",
      swiftSettings: swiftSyntaxSwiftSettings,
      linkerSettings: swiftSyntaxLinkerSettings
    ),
    .testTarget(
      name: "EditorTests",
      dependencies: ["SettingsEditor", "settings-editor"],
      path: "Tests/EditorTests",
      exclude: ["Snapshots"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
