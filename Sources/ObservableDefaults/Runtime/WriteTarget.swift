/// The store a settings object writes and the observation its writes exclude, in one object
/// that nothing references weakly (see ``_DefaultsBinding``'s writes).
///
/// A write copies this reference out of the binding under its lock: one atomic increment of its
/// count. Copying the store and the observation themselves cost a write two increments and two
/// decrements more, the store's through the runtime's slow path (it is referenced weakly
/// elsewhere, so its count lives in a side table), and the store's existential with them.
final class WriteTarget {
  /// The store.
  let store: any ObservableKeyValueStore
  /// The object's observation of the store: the store does not tell it about its own writes.
  let observation: ObservationToken?

  init(store: any ObservableKeyValueStore, observation: ObservationToken?) {
    self.store = store
    self.observation = observation
  }
}
