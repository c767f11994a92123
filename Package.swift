// swift-tools-version: 6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

/// Where the macros get SwiftSyntax from.
///
/// - `toolchain`: the libraries that ship with the toolchain in `<toolchain>/usr/lib/swift/host`,
///   reached with unsafe flags. Offline, and about 15 s to build the plugin. SwiftPM accepts unsafe
///   flags only in a root package or a `path:` dependency, so this is the choice for those.
/// - `package`: the swift-syntax package by URL, with no unsafe flags. SwiftPM refuses a product
///   with unsafe flags from a `from:`/`exact:`/`branch:` dependency ("contains unsafe build
///   flags"), so a checked-out copy of this package (a folder under `checkouts/`) uses this.
///
/// `OBSERVABLE_DEFAULTS_SWIFT_SYNTAX=toolchain` or `=package` in the environment overrides the
/// choice.
enum SwiftSyntaxSource: String {
  case toolchain, package

  static var current: SwiftSyntaxSource {
    if let chosen = Context.environment["OBSERVABLE_DEFAULTS_SWIFT_SYNTAX"] {
      guard let source = SwiftSyntaxSource(rawValue: chosen) else {
        fail("OBSERVABLE_DEFAULTS_SWIFT_SYNTAX is \"\(chosen)\"; use \"toolchain\" or \"package\".")
      }
      return source
    }
    let isCheckout = Context.packageDirectory.split(separator: "/").contains("checkouts")
    return isCheckout ? .package : .toolchain
  }
}

/// Stops the manifest with a message on standard error.
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("error: " + message + "\n").utf8))
  exit(1)
}

/// The folder of the SwiftSyntax libraries that ship with the toolchain building this package
/// (`<toolchain>/usr/lib/swift/host`). The toolchain is the one whose `libPackageDescription` runs
/// this manifest, else the `swift` on `PATH`.
func toolchainSwiftSyntaxHost() -> String {
  func hostFolder(ofToolchainFile path: String) -> String? {
    guard let range = path.range(of: "/usr/lib/swift/") ?? path.range(of: "/usr/bin/") else {
      return nil
    }
    return String(path[..<range.lowerBound]) + "/usr/lib/swift/host"
  }
  var candidates: [String] = []
  if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) {
    candidates += maps.split(separator: "\n").compactMap { line in
      line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
    }.filter { $0.hasSuffix("libPackageDescription.so") }
  }
  let path = Context.environment["PATH"] ?? ""
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
  fail(
    """
    ObservableDefaults needs the SwiftSyntax libraries that ship with the Swift toolchain \
    (<toolchain>/usr/lib/swift/host/SwiftSyntaxMacros.swiftmodule), but none was found next to \
    the toolchain running this manifest (looked at: \(candidates.joined(separator: ", "))). \
    Install a full Swift 6 toolchain from swift.org (not a runtime-only package) and put its \
    usr/bin on PATH, or set OBSERVABLE_DEFAULTS_SWIFT_SYNTAX=package to build swift-syntax from \
    its repository.
    """)
}

/// How a target that uses SwiftSyntax gets it: package products, or flags and libraries.
struct SwiftSyntaxUse {
  var dependencies: [Target.Dependency] = []
  var swiftSettings: [SwiftSetting] = []
  var linkerSettings: [LinkerSetting] = []

  /// The SwiftSyntax modules `modules` (names as the toolchain ships them) from `source`.
  init(_ modules: [String], from source: SwiftSyntaxSource) {
    switch source {
    case .package:
      dependencies = modules.map { module in
        // swift-syntax vends its plugin message handling as an underscored product.
        let product = module == "SwiftCompilerPluginMessageHandling" ? "_" + module : module
        return .product(name: product, package: "swift-syntax")
      }
    case .toolchain:
      let host = toolchainSwiftSyntaxHost()
      swiftSettings = [.unsafeFlags(["-I", host])]
      linkerSettings =
        [.unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host])]
        + swiftSyntaxLibraries.map { .linkedLibrary($0) }
    }
  }
}

/// Every SwiftSyntax library the toolchain's plugin needs at link time (the modules imported and
/// the ones they depend on).
let swiftSyntaxLibraries = [
  "SwiftSyntax", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftSyntaxBuilder", "SwiftParser",
  "SwiftBasicFormat", "SwiftOperators", "SwiftIfConfig", "SwiftParserDiagnostics",
  "SwiftSyntaxMacroExpansion", "SwiftCompilerPluginMessageHandling",
]

let swiftSyntaxSource = SwiftSyntaxSource.current
let macroSwiftSyntax = SwiftSyntaxUse(
  ["SwiftSyntax", "SwiftSyntaxBuilder", "SwiftSyntaxMacros", "SwiftDiagnostics"],
  from: swiftSyntaxSource)
let pluginSwiftSyntax = SwiftSyntaxUse(
  ["SwiftSyntaxMacros", "SwiftCompilerPluginMessageHandling"], from: swiftSyntaxSource)
let macroTestsSwiftSyntax = SwiftSyntaxUse(
  [
    "SwiftSyntax", "SwiftSyntaxBuilder", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftParser",
    "SwiftSyntaxMacroExpansion",
  ],
  from: swiftSyntaxSource)

let package = Package(
  name: "ObservableDefaults",
  products: [
    .library(name: "ObservableDefaults", targets: ["ObservableDefaults"]),
    .library(name: "ObservableDefaultsCore", targets: ["ObservableDefaultsCore"]),
    .library(name: "ObservableDefaultsEtcd", targets: ["ObservableDefaultsEtcd"]),
    .library(name: "ObservableDefaultsNATS", targets: ["ObservableDefaultsNATS"]),
    .library(name: "ObservableDefaultsSchema", targets: ["ObservableDefaultsSchema"]),
    .library(name: "ObservableDefaultsTesting", targets: ["ObservableDefaultsTesting"]),
    .library(name: "SettingsEditor", targets: ["SettingsEditor"]),
    .executable(name: "settings-editor", targets: ["settings-editor"]),
  ],
  // The sync engines `ObservableDefaults` re-exports and chooses from configuration (see
  // `CloudEngines`). `traits: []` drops them, and with them the need for their C headers.
  traits: [
    .default(enabledTraits: ["EtcdSupport"]),
    .trait(
      name: "EtcdSupport",
      description: """
        The etcd backend (ObservableDefaultsEtcd): chosen when OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS \
        or cloud.conf names etcd endpoints. Builds against libcurl's headers \
        (libcurl4-openssl-dev); loads libcurl only when a program talks to etcd.
        """),
    .trait(
      name: "NATSSupport",
      description: """
        The NATS JetStream backend (ObservableDefaultsNATS): chosen when \
        OBSERVABLE_DEFAULTS_NATS_SERVERS or cloud.conf names NATS servers. Off by default. \
        Builds against libnats' headers (libnats-dev); loads libnats only when a program talks \
        to NATS.
        """),
  ],
  dependencies: swiftSyntaxSource == .package
    ? [.package(url: "https://github.com/swiftlang/swift-syntax.git", "602.0.0"..<"700.0.0")] : [],
  targets: [
    // Macros: the expansions, a plain library (so that the package's own builds compile every
    // other library once, not again as a host tool), and the compiler plugin that serves them.
    .target(
      name: "ObservableDefaultsMacroImplementation",
      dependencies: macroSwiftSyntax.dependencies,
      swiftSettings: macroSwiftSyntax.swiftSettings,
      linkerSettings: macroSwiftSyntax.linkerSettings
    ),
    .macro(
      name: "ObservableDefaultsMacros",
      dependencies: ["ObservableDefaultsMacroImplementation"] + pluginSwiftSyntax.dependencies,
      swiftSettings: pluginSwiftSyntax.swiftSettings,
      linkerSettings: pluginSwiftSyntax.linkerSettings
    ),
    // Core: property-list files, suites shared between processes, change signals, codecs, the
    // cloud store and its engine-neutral backends.
    .target(
      name: "ObservableDefaultsCore",
      dependencies: ["CCloudEngineRegistration", "CExtendedAttributes"]),
    // setxattr/getxattr for the writer's mark on suite files (Glibc's module lacks them).
    .target(name: "CExtendedAttributes"),
    // The hook through which the umbrella module registers the engines it was built with.
    .target(name: "CCloudEngineRegistration"),
    // The engines' C libraries, loaded with dlopen on first use (Sources/COptionalLibrary): a
    // program that never talks to etcd or NATS starts without them, on a machine without them.
    .target(name: "COptionalLibrary", linkerSettings: [.linkedLibrary("dl")]),
    // The etcd cloud backend and its HTTP client, built against libcurl's headers (Debian:
    // libcurl4-openssl-dev; see Sources/CCurl/include/ccurl.h).
    .target(name: "CCurl", dependencies: ["COptionalLibrary"]),
    .target(name: "ObservableDefaultsEtcd", dependencies: ["ObservableDefaultsCore", "CCurl"]),
    // The NATS JetStream cloud backend over libnats, built against its headers (Debian:
    // libnats-dev; see Sources/CNATS/include/cnats.h).
    .target(name: "CNATS", dependencies: ["COptionalLibrary"]),
    .target(name: "ObservableDefaultsNATS", dependencies: ["ObservableDefaultsCore", "CNATS"]),
    // Published settings schemas: the file format and the folders programs publish them in, for
    // tools. The umbrella writes them without re-exporting this module.
    .target(name: "ObservableDefaultsSchema", dependencies: ["ObservableDefaultsCore"]),
    // The library users import: macro declarations, the runtime their expansions call, and the
    // engines of the enabled traits.
    .target(
      name: "ObservableDefaults",
      dependencies: [
        "ObservableDefaultsCore", "ObservableDefaultsMacros", "ObservableDefaultsSchema",
        .target(name: "ObservableDefaultsEtcd", condition: .when(traits: ["EtcdSupport"])),
        .target(name: "ObservableDefaultsNATS", condition: .when(traits: ["NATSSupport"])),
      ]
    ),
    // The contracts for users' and third-party backends' tests: the CloudBackend conformance
    // suite, temporary suites, and the polling helper.
    .target(name: "ObservableDefaultsTesting", dependencies: ["ObservableDefaultsCore"]),
    // Editor: ncurses front end (top-level Screens/) and its command-line program, which links
    // every engine.
    // ncursesw, loaded with dlopen when the editor first draws (Sources/CNcursesW): the verbs
    // start without it.
    .target(name: "CNcursesW", dependencies: ["COptionalLibrary"]),
    .target(
      name: "SettingsEditor",
      dependencies: ["ObservableDefaults", "ObservableDefaultsSchema", "CNcursesW"],
      path: "Screens",
      exclude: ["README-screens.md"]
    ),
    .executableTarget(
      name: "settings-editor",
      dependencies: [
        "SettingsEditor", "ObservableDefaults", "ObservableDefaultsCore", "ObservableDefaultsEtcd",
        "ObservableDefaultsNATS", "ObservableDefaultsSchema",
      ]
    ),
    // A program the library tests start as another process holding settings objects.
    .executableTarget(
      name: "defaults-probe",
      dependencies: ["ObservableDefaults"],
      path: "Tests/DefaultsProbe"
    ),
    // A program that publishes settings schemas, for the tests of the schemas and the editor: an
    // app's code, with the umbrella alone (and the editor, to show its own settings in it while
    // it changes them itself).
    .executableTarget(
      name: "schema-probe",
      dependencies: ["ObservableDefaults", "SettingsEditor"],
      path: "Tests/SchemaProbe"
    ),
    // The Apple-platform README's examples, ported line by line (run by ReadmeExamplesTests).
    .executableTarget(
      name: "readme-examples",
      dependencies: ["ObservableDefaults"],
      path: "Examples/OriginalReadme",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    // Real app code's shapes in Swift 5 mode under main-actor default isolation, with internal
    // imports by default (run by ParityProgramTests).
    .executableTarget(
      name: "parity-swift5",
      dependencies: ["ObservableDefaults"],
      path: "Tests/ParitySwift5",
      swiftSettings: [
        .swiftLanguageMode(.v5), .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("InternalImportsByDefault"),
      ]
    ),
    // A program the core tests start as other processes writing one suite.
    .executableTarget(
      name: "core-probe",
      dependencies: ["ObservableDefaultsCore"],
      path: "Tests/CoreProbe"
    ),
    // Mutated real property lists through the readers and the write path (see the article "Files and records from outside").
    .executableTarget(
      name: "plist-fuzz",
      dependencies: ["ObservableDefaultsCore"],
      path: "Tests/PlistFuzz"
    ),
    // Writers, foreign writers, kills and injected failures against a reference model of a suite
    // (see the article "Testing the storage").
    .executableTarget(
      name: "storage-torture",
      dependencies: ["ObservableDefaultsCore", "ObservableDefaultsTesting", "TestSupport"],
      path: "Tests/StorageTorture",
      exclude: ["Resources"]
    ),
    // The performance measures (release build; see Benchmarks/README.md).
    .executableTarget(
      name: "benchmarks",
      dependencies: [
        "ObservableDefaults", "ObservableDefaultsEtcd", "ObservableDefaultsNATS",
        "ObservableDefaultsSchema", "SettingsEditor",
      ],
      path: "Benchmarks",
      exclude: ["README.md", "measure-build.sh", "measure-size.sh", "Programs"]
    ),
    // A user's smallest settings program and its baseline, a Foundation "hello" that reads
    // `UserDefaults`: the start-to-exit rows of the benchmarks (built with the Swift runtime
    // linked statically) and the start and exit counts of ProgramStartExitTests.
    .executableTarget(
      name: "minimal-defaults",
      dependencies: ["ObservableDefaults"],
      path: "Benchmarks/Programs/MinimalDefaults"
    ),
    .executableTarget(name: "foundation-hello", path: "Benchmarks/Programs/FoundationHello"),
    // What every test target shares: temporary folders, child processes, loopback servers,
    // certificates, tmux sessions and golden files (and, from ObservableDefaultsTesting, the one
    // polling helper).
    .target(
      name: "TestSupport", dependencies: ["ObservableDefaultsTesting"], path: "Tests/TestSupport"),
    .testTarget(
      name: "CoreTests",
      dependencies: [
        "ObservableDefaultsCore", "ObservableDefaultsTesting", "TestSupport", "core-probe",
        "plist-fuzz", "settings-editor", "storage-torture", "minimal-defaults",
      ]
    ),
    .testTarget(
      name: "EtcdTests",
      dependencies: [
        "ObservableDefaultsEtcd", "ObservableDefaultsTesting", "TestSupport", "defaults-probe",
        "settings-editor",
      ]
    ),
    .testTarget(
      name: "NATSTests",
      dependencies: [
        "ObservableDefaultsNATS", "CNATS", "ObservableDefaultsTesting", "TestSupport",
        "settings-editor",
      ]
    ),
    .testTarget(
      name: "ObservableDefaultsTests",
      dependencies: [
        "ObservableDefaults", "ObservableDefaultsSchema", "TestSupport", "defaults-probe",
        "readme-examples", "parity-swift5", "schema-probe",
      ]
    ),
    // Settings classes in a module whose default isolation is the main actor.
    .testTarget(
      name: "MainActorTests",
      dependencies: ["ObservableDefaults", "TestSupport", "defaults-probe"],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    // Public settings classes of both macros in a module built with InternalImportsByDefault,
    // as a user's module may be.
    .testTarget(
      name: "PublicSettings",
      dependencies: ["ObservableDefaults", "TestSupport"],
      swiftSettings: [.enableUpcomingFeature("InternalImportsByDefault")]
    ),
    .testTarget(
      name: "MacroTests",
      dependencies: ["ObservableDefaultsMacroImplementation", "TestSupport"]
        + macroTestsSwiftSyntax.dependencies,
      exclude: ["Expansions"],
      swiftSettings: macroTestsSwiftSyntax.swiftSettings,
      linkerSettings: macroTestsSwiftSyntax.linkerSettings
    ),
    // The manifest as a root package and as a checked-out dependency (runs `swift package`), and
    // the linkage check: an app built with the traits off holds no engine.
    .testTarget(name: "PackageTests", dependencies: ["TestSupport"]),
    .testTarget(
      name: "EditorTests",
      dependencies: [
        "SettingsEditor", "TestSupport", "settings-editor", "ObservableDefaultsCore",
        "ObservableDefaultsEtcd", "ObservableDefaultsSchema", "schema-probe",
      ],
      exclude: ["Snapshots"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Every Swift target: existential types spelled `any P` (SE-0335), and members visible only from
// modules a file imports (SE-0444).
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
    ]
}

// The libraries of the products: an import is internal unless it says `public import` (SE-0409),
// so a module a library uses is part of its interface only where a public declaration names it.
let libraryTargets = Set(
  package.products.compactMap { $0 as? Product.Library }.flatMap(\.targets))
for target in package.targets where libraryTargets.contains(target.name) {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("InternalImportsByDefault")
    ]
}
