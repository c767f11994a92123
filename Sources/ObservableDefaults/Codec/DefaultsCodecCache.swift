import Synchronization

/// The codecs made once per value type and form, shared by every write.
///
/// The expansion asks for a property's codec (`.automatic()`) on each write; making one costs
/// conformance lookups and closure contexts (a tenth of a write in the burst benchmark's
/// profile), so the forms that need them are made once per type.
enum DefaultsCodecCache {
  /// Which codec of a type.
  enum Form: Hashable {
    case propertyList, json
  }

  private static let codecs = Mutex<[Key: Any]>([:])

  private struct Key: Hashable {
    let type: ObjectIdentifier
    let form: Form
  }

  /// The `form` codec of `Value`: made by `make` on first use, the same one afterwards.
  static func codec<Value>(_ form: Form, make: () -> DefaultsCodec<Value>) -> DefaultsCodec<Value> {
    let key = Key(type: ObjectIdentifier(Value.self), form: form)
    if let cached = codecs.withLock({ $0[key] }) as? DefaultsCodec<Value> { return cached }
    let made = make()
    codecs.withLock { $0[key] = made }
    return made
  }
}
