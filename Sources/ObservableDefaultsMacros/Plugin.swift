import ObservableDefaultsMacroImplementation
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler plugin's entry point: serves the macros of this module over standard I/O.
@main
struct ObservableDefaultsPlugin: PluginProvider {
  /// Every macro this plugin expands, by type name.
  static var macros: [String: any Macro.Type] {
    [
      "ObservableDefaultsMacro": ObservableDefaultsMacro.self,
      "DefaultsBackedMacro": DefaultsBackedMacro.self,
      "ObservableCloudMacro": ObservableCloudMacro.self,
      "CloudBackedMacro": CloudBackedMacro.self,
      "ObservableOnlyMacro": ObservableOnlyMacro.self,
      "MarkerMacro": MarkerMacro.self,
    ]
  }

  func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
    guard let macro = Self.macros[typeName] else { throw UnknownMacro(typeName: typeName) }
    return macro
  }

  static func main() throws {
    let connection = try StandardIOMessageConnection()
    let listener = CompilerPluginMessageListener(connection: connection, provider: Self())
    try listener.main()
  }
}

/// The compiler asked for a macro this plugin does not define.
struct UnknownMacro: Error, CustomStringConvertible {
  let typeName: String
  var description: String { "ObservableDefaultsMacros has no macro named '\(typeName)'" }
}
