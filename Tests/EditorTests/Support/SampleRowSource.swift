import Observation

@testable import SettingsEditor

/// A plain `@Observable` object standing in for a settings object in tests.
@Observable
final class SampleObject {
  var name = "Fatbobman"
  var age = 20
  var isEnabled = false
}

/// A test double of ``RowSource``: one row per property of a ``SampleObject``, read through
/// its observable getters, as the settings-object source reads a macro-made class.
@MainActor
final class SampleRowSource: RowSource {
  let object: SampleObject
  let title = "Sample"
  let location = "memory"
  let kind = RowSourceKind.object
  let rowCount = 3

  init(_ object: SampleObject = SampleObject()) {
    self.object = object
  }

  func row(at index: Int) -> PropertyRow {
    switch index {
    case 0:
      PropertyRow(
        name: "name", key: "name", typeName: "String", value: object.name,
        isModified: object.name != "Fatbobman", defaultValue: "Fatbobman",
        editing: .text(TextValueFormat(base: .string), text: object.name))
    case 1:
      PropertyRow(
        name: "age", key: "user-age", typeName: "Int", value: String(object.age),
        isModified: object.age != 20, defaultValue: "20",
        editing: .text(
          TextValueFormat(base: .integer(name: "Int", bitWidth: 64, signed: true)),
          text: String(object.age)))
    default:
      PropertyRow(
        name: "isEnabled", key: nil, typeName: "Bool", value: String(object.isEnabled),
        editing: .toggle(object.isEnabled))
    }
  }

  func setValue(_ value: Any, at index: Int) throws {
    switch index {
    case 0: object.name = value as! String
    case 1: object.age = value as! Int
    default: object.isEnabled = value as! Bool
    }
  }
}
