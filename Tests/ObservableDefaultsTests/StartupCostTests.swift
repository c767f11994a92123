import Foundation
import ObservableDefaultsSchema
import Testing

@testable import ObservableDefaults
@testable import ObservableDefaultsCore

/// What the start of a settings program rests on, kept cheap without changing what it gives: type
/// names written without printing's dynamic casts, environment variables read one by one, scalar
/// value types found by identity.
@Suite struct StartupCostTests {
  struct Outer {
    struct Inner {}
    enum Choice: Int { case first }
  }
  struct Generic<Value> {}
  final class Reference {}

  /// `nameOfType` writes what `String(describing:)` and `String(reflecting:)` write for a type
  /// (schemas and error messages show these names).
  @Test func typeNamesAreTheOnesPrintingWrites() {
    let types: [Any.Type] = [
      Int.self, String?.self, [String: Int].self, [Date].self, Outer.Inner.self,
      Outer.Choice.self, Generic<Outer.Choice>.self, Reference.self, (Int, String).self,
      URL.self,
    ]
    for type in types {
      #expect(nameOfType(type) == String(describing: type))
      #expect(nameOfType(type, qualified: true) == String(reflecting: type))
    }
  }

  /// A variable set or removed after the start is read as it is now, as
  /// `ProcessInfo.processInfo.environment` reads it.
  @Test func environmentVariablesAreReadAtEachCall() {
    let name = "OBSERVABLE_DEFAULTS_STARTUP_COST_TEST"
    #expect(ProcessEnvironment.value(name) == nil)
    setenv(name, "one", 1)
    #expect(ProcessEnvironment.value(name) == "one")
    #expect(ProcessEnvironment.values(of: [name, "\(name)_UNSET"]) == [name: "one"])
    #expect(ProcessEnvironment.all == ProcessInfo.processInfo.environment)
    #expect(ProcessEnvironment.value(name) == ProcessInfo.processInfo.environment[name])
    unsetenv(name)
    #expect(ProcessEnvironment.value(name) == nil)
  }

  /// The scalar kinds found by identity before any cast are the kinds the casts gave.
  @Test func scalarValueTypesKeepTheirKinds() {
    #expect(SettingsValueType(Int.self) == .integer(bitWidth: 64, signed: true))
    #expect(SettingsValueType(String.self) == .string)
    #expect(SettingsValueType(Int?.self) == .optional(.integer(bitWidth: 64, signed: true)))
    #expect(SettingsValueType(UInt8.self) == .integer(bitWidth: 8, signed: false))
  }
}
