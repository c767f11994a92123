/// The codecs made once per value type and rule, shared by every write.
///
/// The expansion asks for a property's codec (`.automatic()`) on each write; making one costs
/// conformance lookups and closure contexts (a tenth of a write in the burst benchmark's
/// profile), so each is made once per type and rule. The lookup is inlined into the setter,
/// where the value type is known: no dynamic cast and no metadata lookup on the way back. A
/// program has a few dozen property types, and comparing a few dozen keys costs less than
/// hashing one (a dictionary here was a tenth of a write), so the entries are a list.
@usableFromInline
enum DefaultsCodecCache {
  /// Which rule of ``DefaultsCodec`` made a codec: one case per `automatic()` and
  /// `automaticForCloud()` overload whose codec differs for the same value type.
  @usableFromInline
  enum Form: Hashable, Sendable {
    case propertyList, json, rawValue, rawValueOrPropertyList
    case optionalPropertyList, optionalRawValue, optionalRawValueOrPropertyList, optionalJSON
    case cloudPropertyList, cloudRawValue, cloudRawValueOrPropertyList
    case optionalCloudPropertyList, optionalCloudRawValue, optionalCloudRawValueOrPropertyList
  }

  @usableFromInline
  struct Key: Equatable, Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let form: Form

    @usableFromInline
    init(type: ObjectIdentifier, form: Form) {
      self.type = type
      self.form = form
    }
  }

  /// A codec, boxed so that a lookup returns it without a dynamic cast.
  @usableFromInline
  final class Entry<Value>: @unchecked Sendable {
    // Sendable: the codec's functions are pure and capture nothing mutable.
    @usableFromInline let codec: DefaultsCodec<Value>

    @usableFromInline
    init(_ codec: DefaultsCodec<Value>) {
      self.codec = codec
    }
  }

  @usableFromInline
  static let entries = AnnotatedMutex<[(key: Key, entry: AnyObject)]>([])

  /// The `form` codec of `Value`: made by `make` on first use, the same one afterwards.
  @inlinable
  static func codec<Value>(_ form: Form, make: () -> DefaultsCodec<Value>) -> DefaultsCodec<Value> {
    let key = Key(type: ObjectIdentifier(Value.self), form: form)
    if let entry = entries.withLock({ $0.first { $0.key == key }?.entry }) {
      // Only an `Entry<Value>` is stored under a key naming `Value`.
      return unsafeDowncast(entry, to: Entry<Value>.self).codec
    }
    return add(make(), under: key)
  }

  /// Stores `codec` under `key` unless another thread stored one first; returns the stored one.
  @usableFromInline
  static func add<Value>(_ codec: DefaultsCodec<Value>, under key: Key) -> DefaultsCodec<Value> {
    let entry = entries.withLock { entries in
      if let stored = entries.first(where: { $0.key == key }) { return stored.entry }
      let entry = Entry(codec)
      entries.append((key, entry))
      return entry
    }
    return unsafeDowncast(entry, to: Entry<Value>.self).codec
  }
}
