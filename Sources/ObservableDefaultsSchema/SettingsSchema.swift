public import Foundation

/// The published description of one settings class: where its values live and, for each
/// persisted property, its key, type, stored form, default, documentation, choices and range.
///
/// Programs publish one per class (`ObservableDefaults` does it, see its `SettingsSchemaPublisher`)
/// as a property-list file under `$XDG_DATA_HOME/ObservableDefaults/schemas/<program>/` (per
/// user) or `<dir>/ObservableDefaults/schemas/<program>/` for each `dir` of `$XDG_DATA_DIRS`
/// (installed with a package), as GSettings schemas are installed in
/// `/usr/share/glib-2.0/schemas`; tools such as the settings editor read them with
/// ``SettingsSchemaDirectory`` to show and check a program's settings while it does not run. The
/// file format is described in <doc:ReadingPublishedSchemas>.
public struct SettingsSchema: Sendable, Equatable {
  /// The version of the file format this library writes, `1`. A file of a later format is
  /// refused with ``SettingsSchemaError/unsupportedFormat(path:format:)``.
  public static let formatVersion = 1

  /// The program that published the schema.
  public var program: Program
  /// The module that declares the class, such as `"MyApp"`.
  public var module: String
  /// The class name inside its module, such as `"Settings"` or `"Outer.Settings"`.
  public var className: String
  /// Where the values live.
  public var store: Store
  /// The prefix in front of every storage key (empty for none).
  public var prefix: String
  /// The class's schema version (`VersionedSettings.migrations`), or `nil` when it has none.
  public var schemaVersion: Int?
  /// The persisted properties in declaration order (`@ObservableOnly` ones are not stored and
  /// not listed).
  public var keys: [Key]

  /// Creates a schema.
  public init(
    program: Program, module: String, className: String, store: Store, prefix: String,
    schemaVersion: Int?, keys: [Key]
  ) {
    self.program = program
    self.module = module
    self.className = className
    self.store = store
    self.prefix = prefix
    self.schemaVersion = schemaVersion
    self.keys = keys
  }

  /// `module.className`, such as `"MyApp.Settings"`: the schema's identity within its program.
  public var qualifiedName: String { module + "." + className }

  /// The key whose storage key (without the prefix) is `key`, or one of whose previous keys is.
  public func key(named key: String) -> Key? {
    keys.first { $0.key == key } ?? keys.first { $0.previousKeys.contains(key) }
  }

  /// The key stored under `storedKey` in the store (the prefix, then the key or one of its
  /// previous keys); `nil` when the schema lists none.
  public func key(stored storedKey: String) -> Key? {
    guard storedKey.hasPrefix(prefix) else { return nil }
    return key(named: String(storedKey.dropFirst(prefix.count)))
  }

  /// The key under which `key` is stored: the prefix, then the key.
  public func storedKey(of key: Key) -> String { prefix + key.key }

  /// The program that published a schema.
  public struct Program: Sendable, Equatable {
    /// The program's name (`ProcessInfo.processName`): the folder the schema lies in.
    public var name: String
    /// The absolute path of the program's executable when it published the schema, or `nil`
    /// when it was published for installation (the path is not known then).
    public var executable: String?
    /// When the executable was last modified (its build), or `nil` with no executable: a
    /// program replaces a published schema only when its build is as new or newer, so two
    /// versions running at once do not replace each other's schema back and forth.
    public var build: Date?

    /// Creates the description of a program.
    public init(name: String, executable: String? = nil, build: Date? = nil) {
      self.name = name
      self.executable = executable
      self.build = build
    }
  }

  /// Where a settings class keeps its values.
  public enum Store: Sendable, Hashable {
    /// The suite of this name in the preferences folder (`$XDG_CONFIG_HOME/<name>.plist`);
    /// an empty name never occurs (the standard suite is named after the program).
    case suite(String)
    /// The cloud key-value store's container of this name (`@ObservableCloud`).
    case cloud(container: String)
  }

  /// One persisted property.
  public struct Key: Sendable, Equatable {
    /// The property's name in Swift.
    public var name: String
    /// The storage key without the prefix.
    public var key: String
    /// The keys of earlier versions, newest first, without the prefix.
    public var previousKeys: [String]
    /// The Swift type as written, such as `"Int"` or `"Optional<Theme>"`.
    public var typeName: String
    /// The kind of value, for choosing an editor (the ``SettingsValueType`` of the property).
    public var valueType: SettingsValueType
    /// How the value is stored.
    public var storedForm: StoredForm
    /// The default in its stored form (a property-list object), or `nil` for an optional
    /// whose default is `nil`.
    public var defaultValue: PropertyListObject?
    /// The first paragraph of the property's documentation comment.
    public var summary: String?
    /// The rest of the documentation comment after the first paragraph (DocC's discussion).
    public var discussion: String?
    /// The enumeration's cases in declaration order with their stored raw values, or `nil`
    /// when the type lists no cases.
    public var choices: [Choice]?
    /// The values an integer type holds (`Int8`: -128…127), or `nil` for other types.
    public var range: IntegerRange?

    /// Creates the description of a property.
    public init(
      name: String, key: String, previousKeys: [String] = [], typeName: String,
      valueType: SettingsValueType, storedForm: StoredForm, defaultValue: PropertyListObject?,
      summary: String? = nil, discussion: String? = nil, choices: [Choice]? = nil,
      range: IntegerRange? = nil
    ) {
      self.name = name
      self.key = key
      self.previousKeys = previousKeys
      self.typeName = typeName
      self.valueType = valueType
      self.storedForm = storedForm
      self.defaultValue = defaultValue
      self.summary = summary
      self.discussion = discussion
      self.choices = choices
      self.range = range
    }

    /// Whether `nil` is a value (the property is optional; storing `nil` removes the key).
    public var isOptional: Bool {
      if case .optional = valueType { return true }
      return false
    }
  }

  /// How a property's value is stored: the property-list type of the stored object.
  public enum StoredForm: String, Sendable, Equatable, CaseIterable {
    /// A property-list string.
    case string
    /// A property-list integer.
    case integer
    /// A property-list real number.
    case real
    /// A property-list Boolean.
    case boolean
    /// A property-list date.
    case date
    /// Property-list data.
    case data
    /// A property-list array.
    case array
    /// A property-list dictionary.
    case dictionary
    /// The raw value of a `RawRepresentable` type, as a string.
    case rawString
    /// The raw value of a `RawRepresentable` type, as an integer.
    case rawInteger
    /// The raw value of a `RawRepresentable` type, as a real number.
    case rawReal
    /// A `Codable` value as JSON in property-list data (`URL` included).
    case json
  }

  /// One case of an enumeration.
  public struct Choice: Sendable, Equatable {
    /// The case's name in Swift, such as `"dark"`.
    public var name: String
    /// Its raw value as stored: a `String`, an `Int` or a `Double`.
    public var value: PropertyListObject

    /// Creates a case.
    public init(name: String, value: PropertyListObject) {
      self.name = name
      self.value = value
    }
  }

  /// The closed range of an integer type: `minimum` is never above 0 and `maximum` never below,
  /// so each fits its type (`UInt64.max` included).
  public struct IntegerRange: Sendable, Equatable {
    /// The smallest value.
    public var minimum: Int64
    /// The greatest value.
    public var maximum: UInt64

    /// Creates a range.
    public init(minimum: Int64, maximum: UInt64) {
      self.minimum = minimum
      self.maximum = maximum
    }

    /// Whether `value` lies in the range.
    public func contains<Integer: BinaryInteger>(_ value: Integer) -> Bool {
      value >= Integer.zero
        ? UInt64(exactly: value).map { $0 <= maximum } ?? false
        : Int64(exactly: value).map { $0 >= minimum } ?? false
    }
  }
}
