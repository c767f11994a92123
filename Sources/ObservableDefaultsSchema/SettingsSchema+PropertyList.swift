import Foundation
import ObservableDefaultsCore

// The file format (version 1): a property list (written binary, read in any format) whose root
// dictionary holds
//   format (integer, 1), program {name, executable?, build? (date)}, module, class,
//   store {suite} or {cloudContainer}, prefix, schemaVersion? (integer),
//   keys: [{name, key, previousKeys?, type, kind, optional, storedForm, default?, summary?,
//           discussion?, choices? [{name, value}], range? {minimum, maximum}}]
// The *Publishing settings schemas* article documents it for other tools.

extension SettingsSchema {
  /// The most keys a schema may list.
  static let maximumKeyCount = 10_000
  /// The most characters of a name, key, type or summary; a discussion may hold 16 times more.
  static let maximumTextLength = 4_096

  /// The schema as the root dictionary of its file.
  var propertyList: [String: Any] {
    var program: [String: Any] = ["name": self.program.name]
    program["executable"] = self.program.executable
    program["build"] = self.program.build
    var root: [String: Any] = [
      "format": Self.formatVersion, "program": program, "module": module, "class": className,
      "prefix": prefix, "keys": keys.map(\.propertyList),
    ]
    switch store {
    case .suite(let name): root["store"] = ["suite": name]
    case .cloud(let container): root["store"] = ["cloudContainer": container]
    }
    root["schemaVersion"] = schemaVersion
    return root
  }

  /// Reads a schema from the root dictionary of its file.
  ///
  /// - Throws: ``SettingsSchemaError`` naming `path` and the first field that is wrong.
  init(propertyList root: [String: Any], path: String) throws(SettingsSchemaError) {
    let fields = SchemaFields(root, path: path, at: "")
    let format: Int = try fields.required("format")
    guard format <= Self.formatVersion else { throw .unsupportedFormat(path: path, format: format) }
    let program = try fields.dictionary("program")
    let store = try fields.dictionary("store")
    let storeValue: Store
    if let suite: String = try store.optional("suite") {
      guard PreferencesDirectory.isSuiteName(suite) else {
        throw store.error(
          "suite", "\"\(suite)\" is not a suite name (one file name: no /, not . or ..)")
      }
      storeValue = .suite(suite)
    } else if let container: String = try store.optional("cloudContainer") {
      guard PreferencesDirectory.isSuiteName(container) else {
        throw store.error(
          "cloudContainer",
          "\"\(container)\" is not a container name (one file name: no /, not . or ..)")
      }
      storeValue = .cloud(container: container)
    } else {
      throw fields.error("store", "holds neither suite nor cloudContainer")
    }
    let keys = try fields.array("keys")
    guard keys.count <= Self.maximumKeyCount else {
      throw fields.error("keys", "\(keys.count) keys, more than \(Self.maximumKeyCount)")
    }
    self.init(
      program: Program(
        name: try program.required("name"), executable: try program.optional("executable"),
        build: try program.optional("build")),
      module: try fields.required("module"), className: try fields.required("class"),
      store: storeValue, prefix: try fields.required("prefix"),
      schemaVersion: try fields.optional("schemaVersion"),
      keys: try keys.map { fields throws(SettingsSchemaError) in try Key(fields) })
  }
}

extension SettingsSchema.Key {
  fileprivate var propertyList: [String: Any] {
    var entry: [String: Any] = [
      "name": name, "key": key, "type": typeName, "kind": valueType.schemaKind,
      "optional": isOptional, "storedForm": storedForm.rawValue,
    ]
    if !previousKeys.isEmpty { entry["previousKeys"] = previousKeys }
    entry["default"] = defaultValue?.value
    entry["summary"] = summary
    entry["discussion"] = discussion
    entry["choices"] = choices?.map { ["name": $0.name, "value": $0.value.value] }
    entry["range"] = range.map { ["minimum": $0.minimum, "maximum": $0.maximum] }
    return entry
  }

  fileprivate init(_ fields: SchemaFields) throws(SettingsSchemaError) {
    let formText: String = try fields.required("storedForm")
    guard let storedForm = SettingsSchema.StoredForm(rawValue: formText) else {
      throw fields.error("storedForm", "\"\(formText)\" is not a stored form")
    }
    let choices = try fields.optionalArray("choices")?.map {
      choice throws(SettingsSchemaError) in
      SettingsSchema.Choice(name: try choice.required("name"), value: try choice.object("value"))
    }
    let range = try fields.optionalDictionary("range").map {
      range throws(SettingsSchemaError) in
      let minimum: Int = try range.required("minimum")
      guard minimum <= 0 else { throw range.error("minimum", "\(minimum) is above 0") }
      return SettingsSchema.IntegerRange(
        minimum: Int64(minimum), maximum: try range.unsignedInteger("maximum"))
    }
    let kind: String = try fields.required("kind")
    let isOptional: Bool = try fields.required("optional")
    guard
      let base = SettingsValueType(
        schemaKind: kind, cases: choices?.map { "\($0.value.value)" }, range: range)
    else { throw fields.error("kind", "\"\(kind)\" is not a kind of value") }
    self.init(
      name: try fields.required("name"), key: try fields.required("key"),
      previousKeys: try fields.optional("previousKeys") ?? [],
      typeName: try fields.required("type"),
      valueType: isOptional ? .optional(base) : base, storedForm: storedForm,
      defaultValue: try fields.optionalObject("default"),
      summary: try fields.optional("summary"),
      discussion: try fields.optional("discussion", length: 16 * SettingsSchema.maximumTextLength),
      choices: choices, range: range)
    if let defaultValue, let misfit = misfit(of: defaultValue.value, key: key) {
      throw fields.error("default", "is \(misfit.found), not \(misfit.expected)")
    }
  }
}

extension SettingsValueType {
  /// The word of a published schema's `kind` field: the case's name (`integer`, `enumeration`);
  /// an optional's is the wrapped kind's (the field `optional` says the rest).
  fileprivate var schemaKind: String {
    switch self {
    case .string: "string"
    case .bool: "bool"
    case .integer: "integer"
    case .double: "double"
    case .float: "float"
    case .date: "date"
    case .data: "data"
    case .url: "url"
    case .enumeration: "enumeration"
    case .array: "array"
    case .dictionary: "dictionary"
    case .codable: "codable"
    case .optional(let wrapped): wrapped.schemaKind
    }
  }

  /// The kind a published schema names; an integer's width and sign come from its range, an
  /// enumeration's cases from its choices.
  fileprivate init?(schemaKind: String, cases: [String]?, range: SettingsSchema.IntegerRange?) {
    switch schemaKind {
    case "string": self = .string
    case "bool": self = .bool
    case "integer":
      let range = range ?? SettingsSchema.IntegerRange(minimum: .min, maximum: UInt64(Int64.max))
      let signed = range.minimum < 0
      let bits = UInt64.bitWidth - range.maximum.leadingZeroBitCount + (signed ? 1 : 0)
      self = .integer(bitWidth: [8, 16, 32, 64].first { $0 >= bits } ?? 64, signed: signed)
    case "double": self = .double
    case "float": self = .float
    case "date": self = .date
    case "data": self = .data
    case "url": self = .url
    case "enumeration": self = .enumeration(cases: cases ?? [])
    case "array": self = .array
    case "dictionary": self = .dictionary
    case "codable": self = .codable
    default: return nil
    }
  }
}
