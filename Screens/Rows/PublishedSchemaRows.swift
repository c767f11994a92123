import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsSchema
import Observation

/// The keys of another program's settings class as rows, from the schema it published
/// (``SettingsSchema``) and the values of its store: typed rows with defaults, unset keys shown
/// with their default, `*` for a stored value that differs, `!` for one that does not fit the
/// schema, enumerations cycled by their cases, integers checked against their range, `d`
/// removing the key. A suite is its file in the preferences folder; a cloud container is opened
/// as another device of it, so edits reach the program's devices. Observable key by key: a
/// change another process makes redraws that key's row only.
///
/// The store is opened (a suite's file read) when the values are first needed (a row, a search,
/// an edit, the header's state), not when the rows are made: an editor listing hundreds of
/// schemas reads the suite it shows, not every one. It is followed from before its values are
/// read, as ``SuiteRows`` follows its suite.
@MainActor
final class PublishedSchemaRows: LiveRowSource, ReloadableRowSource, ChangeReportingSource,
  Observable
{
  let title: String
  let location: String
  let kind: RowSourceKind
  private let schema: SettingsSchema
  /// The preferences folder a suite's file is in.
  let preferences: URL
  /// The store, once opened (``store`` opens it).
  private var openedStore: (any ObservableKeyValueStore)?
  private let registrar = ObservationRegistrar()
  private var observation: ObservationToken?
  /// The observation of whether a suite's file reads, when it was opened after watching began.
  private var readability: ObservationToken?
  /// Where outside changes go (set by ``startWatching(post:)``).
  private var watchingPost: MainJobPoster?
  /// The stored value of each key of the schema (absent: not stored), read when the store opens.
  private var values: [String: Any] = [:]
  var reportChange: ((SeenChange) -> Void)?

  /// Rows for `schema` on its store: the suite in `preferences`, or a new device of the cloud
  /// container on the backend the configuration names.
  /// The rows of each of `schemas`, in their order (the published ones' is by program, so that
  /// one program's classes stand together); a class whose name another program's class has too
  /// is titled with its program.
  static func rows(of schemas: [SettingsSchema], preferences: URL) -> [PublishedSchemaRows] {
    let programsOfClass = Dictionary(grouping: schemas, by: \.className)
      .mapValues { Set($0.map(\.program.name)).count }
    return schemas.map { schema in
      PublishedSchemaRows(
        schema, preferences: preferences,
        namingProgram: programsOfClass[schema.className, default: 0] > 1)
    }
  }

  /// - Parameter namingProgram: Whether the title names the program too (another program's
  ///   schema has a class of the same name).
  init(_ schema: SettingsSchema, preferences: URL, namingProgram: Bool = false) {
    self.schema = schema
    // The objects pane is narrow: the class there, its program in the header (and in the pane
    // when two programs have a class of the same name).
    title = namingProgram ? "\(schema.className) · \(schema.program.name)" : schema.className
    self.preferences = preferences
    switch schema.store {
    case .suite(let name):
      location = "\(schema.program.name): \(Self.fileURL(ofSuite: name, in: preferences).path)"
      kind = .object
    case .cloud(let container):
      location = "\(schema.program.name): cloud container \(container)"
      kind = .cloud
    }
  }

  /// The file of the suite `name` in `preferences`.
  private static func fileURL(ofSuite name: String, in preferences: URL) -> URL {
    preferences.appendingPathComponent(name + ".plist", isDirectory: false)
  }

  /// The store, opened now if it was not yet.
  private var store: any ObservableKeyValueStore { openedStore ?? open() }

  /// Whether the store was opened (observable: it opens once): a suite's "other keys" are
  /// decided then.
  var isOpen: Bool {
    registrar.access(self, keyPath: \.isOpen)
    return openedStore != nil
  }

  /// Opens the store (which reads a suite's file), follows its changes if
  /// ``startWatching(post:)`` came first, then reads the values of the schema's keys.
  private func open() -> any ObservableKeyValueStore {
    let store: any ObservableKeyValueStore =
      switch schema.store {
      case .suite(let name):
        PropertyListDefaults(fileURL: Self.fileURL(ofSuite: name, in: preferences))
      case .cloud(let container):
        NSUbiquitousKeyValueStore(backend: CloudDefaultBackend.configured(container: container))
      }
    registrar.withMutation(of: self, keyPath: \.isOpen) { openedStore = store }
    if let watchingPost {
      follow(store, post: watchingPost)
      // The editor wakes when the file stops reading or reads again (``suiteFile`` was nil).
      readability = (store as? PropertyListDefaults)?.observeReadability { watchingPost {} }
    }
    for key in schema.keys {
      let storedKey = schema.storedKey(of: key)
      values[storedKey] = store.storedObject(forKey: storedKey)
    }
    return store
  }

  /// The suite the schema describes, nil for a cloud container.
  var suiteName: String? {
    if case .suite(let name) = schema.store { return name }
    return nil
  }

  /// The keys of the store the schema lists, as stored (with the class's prefix).
  var storedKeys: Set<String> { Set(schema.keys.map(schema.storedKey(of:))) }

  /// The number of keys the schema lists; the store is opened then, as the rows are needed.
  var rowCount: Int {
    _ = store
    return schema.keys.count
  }

  var state: String? {
    kind == .cloud ? (store as? NSUbiquitousKeyValueStore).map(CloudStoreState.text) : nil
  }

  /// The suite once opened, nil before: a suite not read yet says nothing about its file.
  var suiteFile: PropertyListDefaults? { openedStore as? PropertyListDefaults }

  var hasReadValues: Bool { suiteFile?.hasReadValues ?? true }

  func row(at index: Int) -> PropertyRow {
    _ = store
    let key = schema.keys[index]
    let storedKey = schema.storedKey(of: key)
    registrar.access(self, keyPath: \.[observing: storedKey])
    let stored = values[storedKey]
    let misfit = stored.flatMap { key.misfit(of: $0, key: storedKey) }
    let shown = (misfit == nil ? stored : nil) ?? key.defaultValue?.value
    let typeName = SettingsObjectRows.displayName(of: key.typeName)
    let format = ValueFormatting(type: key.valueType, typeName: typeName)
    let value = shown.map { Self.swiftValue($0, of: key) }
    return PropertyRow(
      name: key.name, key: storedKey, typeName: typeName,
      value: format.text(of: value as Any, stored: shown),
      isModified: stored != nil && misfit == nil
        && !propertyListValuesEqual(stored, key.defaultValue?.value),
      defaultValue: key.defaultValue.map {
        format.text(of: Self.swiftValue($0.value, of: key), stored: $0.value)
      } ?? (key.isOptional ? "nil" : nil),
      summary: Self.about(key),
      editing: format.editing(value: value as Any, stored: shown),
      problem: misfit.map { "stored \($0.found) does not fit: \(key.expectedValues) expected" })
  }

  /// Stores what an editor of the row gave, in the key's stored form, once it fits the schema.
  ///
  /// - Throws: ``SettingsSchemaMisfit`` when it does not fit (out of range, not a case); the
  ///   store's error when it cannot be written.
  func setValue(_ value: Any, at index: Int) throws {
    let key = schema.keys[index]
    let storedKey = schema.storedKey(of: key)
    let object = Self.storedForm(of: value, for: key)
    if let object, let misfit = key.misfit(of: object, key: storedKey) { throw misfit }
    try store.write(object, forKey: storedKey, excluding: observation)
    reload([storedKey])
  }

  func resetValue(at index: Int) throws {
    let storedKey = schema.storedKey(of: schema.keys[index])
    try store.write(nil, forKey: storedKey, excluding: observation)
    reload([storedKey])
  }

  func snapshot(at index: Int) -> RowSnapshot? {
    _ = store
    let storedKey = schema.storedKey(of: schema.keys[index])
    return .storedUnder(key: storedKey, value: values[storedKey])
  }

  func restore(_ snapshot: RowSnapshot, at index: Int) throws {
    guard case .storedUnder(let key, let value) = snapshot else { return }
    try store.write(value, forKey: key, excluding: observation)
    reload([key])
  }

  /// Follows the store's outside changes from now on, or from when it opens if it is not open.
  func startWatching(post: @escaping MainJobPoster) {
    guard watchingPost == nil else { return }
    watchingPost = post
    if let openedStore { follow(openedStore, post: post) }
  }

  /// Shows the changes `store` reports, through `post`.
  private func follow(_ store: any ObservableKeyValueStore, post: @escaping MainJobPoster) {
    observation = store.observe { [weak self] change in
      post { self?.reload(change.keys, writer: change.writer) }
    }
  }

  /// Writes what is pending and reads the store again.
  ///
  /// - Throws: The store's error when it cannot be written or read.
  func reload() throws {
    if !store.synchronize() {
      if let error = (store as? PropertyListDefaults)?.lastError { throw error }
    }
    reload(Set(values.keys).union(schema.keys.map(schema.storedKey(of:))), writer: .unknown)
  }

  /// Reads `changedKeys` again and redraws the rows of those whose value differs; reports the
  /// changes as made by `writer` (nil: this editor).
  private func reload(_ changedKeys: Set<String>, writer: DefaultsChange.Writer? = nil) {
    let before = changedKeys.reduce(into: [String: Any?]()) { $0[$1] = values[$1] }
    defer { reportChanges(before, now: { self.values[$0] }, writer: writer, store: store) }
    for storedKey in changedKeys where schema.key(stored: storedKey) != nil {
      let value = store.storedObject(forKey: storedKey)
      guard !propertyListValuesEqual(values[storedKey], value) else { continue }
      registrar.withMutation(of: self, keyPath: \.[observing: storedKey]) {
        values[storedKey] = value
      }
    }
  }

  /// The key's documentation (summary, then discussion); nil when its doc comment is empty.
  private static func about(_ key: SettingsSchema.Key) -> String? {
    let parts = [key.summary, key.discussion].compactMap { $0 }.filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  /// The observation identity of one key's value.
  private subscript(observing storedKey: String) -> String { storedKey }

  /// How the library stores a `URL`: as JSON data (the form a live object's rows read too).
  private static let urlCodec = DefaultsCodec<URL>.automatic()

  /// A stored value as the editors of its kind take it: a `Float` for a `Float` key, a `URL` for
  /// a `URL` key (shown and typed as a plain URL, `https://example.com`, not its stored JSON),
  /// else the property-list value itself.
  private static func swiftValue(_ stored: Any, of key: SettingsSchema.Key) -> Any {
    switch (key.valueType, stored) {
    case (.float, let number as Double), (.optional(.float), let number as Double):
      Float(number)
    case (.url, _), (.optional(.url), _): urlCodec.decode(stored) ?? stored
    default: stored
    }
  }

  /// What an editor gave in the key's stored form: a number as `Int` or `Double`, JSON as data
  /// (or as the array or dictionary for those forms), a case as its raw value; nil for an empty
  /// optional.
  private static func storedForm(of value: Any, for key: SettingsSchema.Key) -> Any? {
    guard let value = ValueFormatting.unwrapped(value) else { return nil }
    switch value {
    case let choice as EnumerationCase:
      guard let text = choice.rawText else { return nil }
      return key.choices?.first { "\($0.value.value)" == text }?.value.value
        ?? rawValue(text, form: key.storedForm)
    case let json as JSONValue:
      if json.object is NSNull { return nil }
      return [.array, .dictionary].contains(key.storedForm) ? json.object : Data(json.text.utf8)
    case let url as URL: return urlCodec.encode(url)
    case let number as Float: return Double(number)
    case let number as any BinaryInteger:
      if let integer = Int(exactly: number) { return integer }
      return UInt64(exactly: number)
    default: return value
    }
  }

  /// A raw value typed as text in the raw form the key stores.
  private static func rawValue(_ text: String, form: SettingsSchema.StoredForm) -> Any {
    switch form {
    case .rawInteger: Int(text) ?? text
    case .rawReal: Double(text) ?? text
    default: text
    }
  }
}
