import Foundation
import Observation

/// The top-level keys of one property-list domain (a suite or a file) as rows, in key order,
/// observable key by key: replacing one key's value redraws that key's row only.
@MainActor
final class PropertyListDomain: RowSource, Observable {
  /// Stores one value (nil removes the key) in the domain's backing store.
  typealias Store = @MainActor (_ key: String, _ value: Any?) throws -> Void

  let title: String
  let location: String
  let kind: RowSourceKind
  private let registrar = ObservationRegistrar()
  private let store: Store?
  private var values: [String: Any]
  private var keys: [String]

  /// Creates a domain showing `values`.
  /// - Parameters:
  ///   - store: writes an edited value through; nil makes every row read-only.
  init(title: String, location: String, kind: RowSourceKind, values: [String: Any], store: Store?) {
    self.title = title
    self.location = location
    self.kind = kind
    self.values = values
    self.store = store
    keys = values.keys.sorted()
  }

  var rowCount: Int {
    registrar.access(self, keyPath: \.keys)
    return keys.count
  }

  func row(at index: Int) -> PropertyRow {
    let key = keys[index]
    registrar.access(self, keyPath: \.[observing: key])
    let value = PropertyListValue(values[key] as Any)
    return PropertyRow(name: key, key: key, typeName: value.typeName, value: value.summary, editing: editing(for: value))
  }

  func setValue(_ value: Any, at index: Int) throws {
    let key = keys[index]
    guard let store else { throw PropertyListDomainError.readOnly(location) }
    try store(key, value)
    replace([key: value])
  }

  /// Takes new values for some keys (nil: the key was removed) and invalidates exactly their
  /// rows, or the whole list when keys appeared or disappeared.
  func replace(_ changes: [String: Any?]) {
    var keysChanged = false
    for (key, value) in changes {
      keysChanged = keysChanged || (values[key] == nil) != (value == nil)
      registrar.withMutation(of: self, keyPath: \.[observing: key]) { values[key] = value }
    }
    if keysChanged {
      registrar.withMutation(of: self, keyPath: \.keys) { keys = values.keys.sorted() }
    }
  }

  /// The observation identity of one key's value (the value itself lives in `values`).
  private subscript(observing key: String) -> String { key }

  private func editing(for value: PropertyListValue) -> RowEditing {
    guard store != nil else { return .readOnly("\(kind.rawValue) opened read-only") }
    switch value {
    case .string(let text): return .text(TextValueFormat(base: .string), text: text)
    case .bool(let flag): return .toggle(flag)
    case .integer(let number): return .text(TextValueFormat(base: .integer(name: "Int", bitWidth: 64, signed: true)), text: String(number))
    case .real(let number): return .text(TextValueFormat(base: .double), text: String(number))
    default: return .readOnly("\(value.typeName) values are not editable yet")
    }
  }
}

/// Why a ``PropertyListDomain`` refused a change.
enum PropertyListDomainError: Error, CustomStringConvertible {
  case readOnly(String)

  var description: String {
    switch self {
    case .readOnly(let location): "\(location) is open read-only"
    }
  }
}
