import Foundation

/// The state shared by every ``PropertyListDefaults`` instance of one file in this process: the
/// in-memory domain, the writes not yet on disk, the observers and the last error.
///
/// Writes change memory at once, tell the observers synchronously on the writing thread, and
/// schedule a flush on ``queue``, at once after a quiet millisecond and otherwise a millisecond
/// after the last flush started (``JobPacing``); the flush writes everything pending in one
/// ``PropertyListFile`` apply. Re-reads after a change on disk run on ``queue`` too, so they
/// never interleave with a flush. Observers are never called while ``lock`` is held.
final class SuiteStorage: ObservedStoreState, @unchecked Sendable {
  typealias Handler = @Sendable (DefaultsChange) -> Void

  /// The file, symbolic links resolved (the identity of this storage).
  let file: PropertyListFile
  /// Serial queue for flushes, re-reads and notifications of changes made outside this process.
  let queue: DispatchQueue
  static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

  let lock = NSLock()
  // Guarded by `lock`, which already excludes: the fields a write touches skip the runtime's
  // exclusivity bookkeeping (a twelfth of a write in the burst benchmark's profile).
  // Keyed by exact key: two keys that differ only in Unicode normalization are two entries, as
  // in the file.
  @exclusivity(unchecked) private var values: [PropertyListKey: Any]
  /// Where the keys written last are in ``values``: a property's writes after its first hash no
  /// key. Forgotten whenever a key is added to ``values`` or removed from it.
  @exclusivity(unchecked) private var slots = KeySlots()
  /// ``hashedWriteLookups``, guarded by ``lock``.
  @exclusivity(unchecked) private var hashedLookups = 0
  /// ``untypedWriteComparisons``, guarded by ``lock``.
  @exclusivity(unchecked) private var anyComparisons = 0
  @exclusivity(unchecked) private var pending = PendingChanges()
  @exclusivity(unchecked) private var flushScheduled = false
  @exclusivity(unchecked) private var flushPacing = JobPacing(interval: 1_000_000)
  private var reloadScheduled = false
  @exclusivity(unchecked) var observers = ObserverList<DefaultsChange>()
  /// Who is told when a re-read changes ``lastError`` without a value changing (the file
  /// stopped reading, or reads again).
  var readabilityObservers = ObserverList<Void>()
  @exclusivity(unchecked) private var fileError: PropertyListError?
  private var latestError: PropertyListError?
  /// Whether the file was read (or found missing) since the storage was made: false while a
  /// file malformed from the start has never parsed.
  private var hasReadFile = false
  /// A change a flush dropped because the file refused it (see ``flushPending()``) that no
  /// ``flush()`` or ``synchronize()`` has thrown or reported yet: the scheduled flush runs a
  /// millisecond after a write, before the caller's `flush()`.
  private var unreportedRefusal: PropertyListError?
  // Set once by `startWatching()`: the watch of the file, ended when the storage goes.
  private var fileWatch: ObservationToken?
  // Confined to `queue` (or to `init`): the version of the file last read or written, which
  // tells a flush or a change notice that the file is unchanged (nil: unknown, read it). Its
  // document holds no values between the queue's jobs: the file's values are memory's less the
  // pending writes (`valuesInFile()`), so the suite keeps one dictionary of every value, not
  // two (issue 42, item 3: 12.6 MB more at 100,000 keys, 100 MB at 1,000,000, once the first
  // re-read had given each its own).
  private(set) var disk: PropertyListSnapshot?

  /// Loads the file now, once no writer holds its lock (waited for at most 5 s, ``ReaderLock``);
  /// a malformed file is read again after pauses, then leaves the domain empty and refuses
  /// writes until it parses again.
  init(file: PropertyListFile) {
    self.file = file
    queue = DispatchQueue(label: "ObservableDefaultsCore.suite:" + file.url.lastPathComponent)
    do {
      // With its entries: the first re-read after another writer's change then decodes only
      // the entries that differ, not the whole file.
      // After any writer that holds the file's lock: one that empties the file and writes it
      // again in place would have this process start with no values.
      var snapshot = try file.readingAfterWriters {
        try file.readSnapshot(keepingEntries: true)
      }
      values = snapshot?.document.values ?? [:]
      snapshot?.document.values = [:]
      hasReadFile = true
      disk = snapshot ?? PropertyListSnapshot(document: PropertyListDocument(), version: nil)
    } catch {
      let failure = PropertyListError(wrapping: error, file: file.url, kind: .unreadable)
      values = [:]
      fileError = failure.kind == .malformed ? failure : nil
      latestError = failure
    }
    tagQueue()
  }

  // MARK: Reading

  /// The value stored for exactly `key` (its Unicode scalars), or nil.
  func value(forKey key: String) -> Any? {
    let key = PropertyListKey(key)
    return lock.withLock { values[key] }
  }

  /// Every stored key and value.
  func allValues() -> [PropertyListKey: Any] {
    lock.withLock { values }
  }

  /// How many writes looked their key up in the values by its hash (for tests: the writes of a
  /// property's key after the first do not).
  var hashedWriteLookups: Int {
    lock.withLock { hashedLookups }
  }

  /// How many writes of one key compared the value they replaced with the new one as two `Any`
  /// values (for tests: a write of a ``PropertyListScalar`` does not).
  var untypedWriteComparisons: Int {
    lock.withLock { anyComparisons }
  }

  /// The last failure of a write, a flush or a re-read; nil again after the next successful flush
  /// or re-read of changed bytes.
  var lastError: PropertyListError? {
    lock.withLock { latestError }
  }

  /// Whether the file's values were read at least once: false for a file that has not parsed
  /// since this process first opened it (the values in memory are then none of the file's).
  var hasReadValues: Bool {
    lock.withLock { hasReadFile }
  }

  /// Records a failure seen by a caller (a refused value) as ``lastError``.
  func record(_ error: PropertyListError) {
    lock.withLock { latestError = error }
  }

  // MARK: Writing

  /// Applies `change` (a canonical value) to `key` in memory, schedules the flush and tells
  /// observers when the value changed.
  ///
  /// - Parameters:
  ///   - change: The change.
  ///   - key: The key.
  ///   - excluded: An observer id not to tell.
  /// - Throws: The file's parse failure while the file is malformed; nothing is applied then.
  func write(_ change: PropertyListChange, forKey key: String, excluding excluded: UInt64?) throws {
    try write(change, forKey: key, excluding: excluded) { before, value in
      anyComparisons += 1
      return valuesEqual(before, value)
    }
  }

  /// Stores `value` under `key` in memory, as ``write(_:forKey:excluding:)`` stores
  /// `.set(value.storedValue)`, but compares it with the value it replaces by its known type
  /// (``PropertyListScalar/isEqual(toStored:)``) instead of two `Any` values'.
  ///
  /// - Throws: The file's parse failure while the file is malformed; nothing is applied then.
  func write(_ value: PropertyListScalar, forKey key: String, excluding excluded: UInt64?) throws {
    let stored = value.storedValue
    let exactKey = PropertyListKey(key)
    var before: Any?
    var changed = false
    let targets = try lockedWrite {
      changed = applyScalar(value, stored, forKey: exactKey, before: &before)
      return changed
    }
    if changed {
      targets.notify(excluding: excluded) {
        DefaultsChange(
          key: key, origin: .thisProcess, writer: .current, before: before, after: stored)
      }
    }
  }

  /// ``apply(_:forKey:before:isUnchanged:)`` for a scalar: the value in place is compared where
  /// it lies, and the value replaced goes to `before` only when the value changed (each `Any?`
  /// made, copied and destroyed on the way cost a write about 90 instructions, through
  /// `Optional`'s generic value witnesses). Under ``lock``.
  private func applyScalar(
    _ value: PropertyListScalar, _ stored: Any, forKey key: PropertyListKey, before: inout Any?
  ) -> Bool {
    guard let index = index(of: key) else {
      values[key] = stored
      slots.forget()
      pending.append(.set(stored), forKey: key, replacing: nil)
      return true
    }
    let unchanged = value.isEqual(toStored: values.values[index])
    var replaced = stored
    swap(&values.values[index], &replaced)
    if !pending.replaceLast(forKey: key, with: .set(stored)) {
      pending.append(.set(stored), forKey: key, replacing: replaced)
    }
    guard !unchanged else { return false }
    before = consume replaced
    return true
  }

  /// The index of `key` in ``values``: from ``slots`` when it is a key remembered there, else
  /// by its hash (and then remembered); nil when absent. Under ``lock``.
  private func index(of key: PropertyListKey) -> [PropertyListKey: Any].Index? {
    if let slot = slots.slot(of: key) { return slots.index(at: slot) }
    hashedLookups += 1
    guard let index = values.index(forKey: key) else { return nil }
    slots.remember(key, at: index)
    return index
  }

  /// The write of one key of any value (``write(_:forKey:excluding:)``): `isUnchanged` tells
  /// whether the value replaced (first) equals the value set (second).
  private func write(
    _ change: PropertyListChange, forKey key: String, excluding excluded: UInt64?,
    isUnchanged: (Any, Any) -> Bool
  ) throws {
    // The path of every property write: no collection is built unless an observer is told.
    var changed = false
    var before: Any?
    let exactKey = PropertyListKey(key)
    let targets = try lockedWrite {
      changed = apply(change, forKey: exactKey, before: &before, isUnchanged: isUnchanged)
      return changed
    }
    if changed {
      // Made only for an observer that reads it (the instances' notification posters do not).
      targets.notify(excluding: excluded) {
        DefaultsChange(
          key: key, origin: .thisProcess, writer: .current, before: before,
          after: change.storedValue)
      }
    }
  }

  /// Applies several changes (canonical values) together: memory changes at once, and the
  /// changes become pending under one lock, so they reach the file in the same locked apply
  /// (another process sees all of them or none). Observers are told once, about the keys whose
  /// value changed.
  ///
  /// - Throws: The file's parse failure while the file is malformed; nothing is applied then.
  func write(_ changes: [PropertyListKey: PropertyListChange], excluding excluded: UInt64?)
    throws
  {
    // The changed keys and their values, hashed into the report only for an observer that
    // reads it: building it under the lock for every write of many keys cost removing every
    // key of a 100,000-key suite a tenth more instructions and 12 MB more resident memory.
    var changed: [WrittenChange] = []
    let targets = try lockedWrite {
      for (key, change) in changes {
        var old: Any?
        guard apply(change, forKey: key, before: &old, isUnchanged: valuesEqual) else { continue }
        changed.append(WrittenChange(key: key, before: old, after: change.storedValue))
      }
      return !changed.isEmpty
    }
    guard !changed.isEmpty else { return }
    targets.notify(excluding: excluded) {
      var (before, after) = ([PropertyListKey: Any](), [PropertyListKey: Any]())
      before.reserveCapacity(changed.count)
      after.reserveCapacity(changed.count)
      for entry in changed {
        before[entry.key] = entry.before
        after[entry.key] = entry.after
      }
      return DefaultsChange(
        exactKeys: Set(changed.lazy.map(\.key)), origin: .thisProcess, writer: .current,
        before: before, after: after)
    }
  }

  /// Runs `body` under ``lock`` unless the file is malformed, and schedules the flush.
  ///
  /// - Parameter body: Applies changes; returns whether a value changed.
  /// - Returns: The observers to tell (none when nothing changed), copied under the lock.
  /// - Throws: The file's parse failure; `body` does not run then.
  private func lockedWrite(_ body: () -> Bool) throws -> ObserverList<DefaultsChange> {
    lock.lock()
    if let fileError {
      latestError = fileError
      lock.unlock()
      throw fileError
    }
    let targets = body() ? observers : .none
    let delay: UInt64? = flushScheduled ? nil : flushPacing.delay()
    flushScheduled = true
    lock.unlock()
    if let delay { queue.async(afterNanoseconds: delay) { self.flushPending() } }
    return targets
  }

  /// Sets `key` in memory and marks the change pending with the value it replaced (under
  /// ``lock``); returns whether its value changed (`isUnchanged` compares the value replaced
  /// with the value set), and its value before in `before` (the change report tells it).
  private func apply(
    _ change: PropertyListChange, forKey key: PropertyListKey, before: inout Any?,
    isUnchanged: (Any, Any) -> Bool
  ) -> Bool {
    guard case .set(let value) = change else {
      hashedLookups += 1
      before = values.removeValue(forKey: key)
      if before != nil { slots.forget() }
      pending.append(change, forKey: key, replacing: before)
      return before != nil
    }
    // The value replaced goes straight to `before`: each copy of an `Any?` made and destroyed
    // here cost a write about 70 instructions (generic value witnesses).
    before = replace(forKey: key, with: value)
    pending.append(change, forKey: key, replacing: before)
    guard let before else { return true }
    return !isUnchanged(before, value)
  }

  /// Sets `key` to `value` in ``values``; returns the value it replaced (nil: the key is new).
  /// A key in ``slots`` is replaced in its place without a hash; another is looked up once (and
  /// remembered), or added. Under ``lock``.
  private func replace(forKey key: PropertyListKey, with value: Any) -> Any? {
    guard let index = index(of: key) else {
      values[key] = value
      slots.forget()
      return nil
    }
    var replaced = value
    swap(&values.values[index], &replaced)
    return replaced
  }

  /// Writes everything pending now and waits for it.
  ///
  /// - Throws: The write's ``PropertyListError``.
  func flush() throws {
    if let error = onQueue({ reportingRefusal(flushPending()) }) { throw error }
  }

  /// Writes everything pending, then re-reads the file. Returns false when either fails (or a
  /// change was refused since the last `flush()` or `synchronize()`).
  func synchronize() -> Bool {
    onQueue {
      let flushError = reportingRefusal(flushPending())
      let readError = reload()
      return flushError == nil && readError == nil
    }
  }

  /// `error` (a flush's), else the refusal no caller was told of yet; either way the refusal
  /// counts as told.
  private func reportingRefusal(_ error: PropertyListError?) -> PropertyListError? {
    lock.withLock {
      defer { unreportedRefusal = nil }
      return error ?? unreportedRefusal
    }
  }

  // MARK: Syncing with the file (on `queue`)

  /// Writes every pending change in one apply, then merges what is on disk when another writer
  /// changed the file (else the file is neither read nor diffed again). On failure the
  /// changes stay pending (retried by the next write, `flush()` or recovery of the file), the
  /// error becomes ``lastError`` and, unless it repeats the last error, one line goes to
  /// ``Diagnostics`` (standard error by default). A change the file refuses by its key
  /// (``PropertyListError/Kind/invalidValue(key:)``: a value an XML file cannot hold, a file too
  /// large to read) is dropped instead, its key takes the value on disk again (observers are
  /// told), the others are written, and the refusal is the flush's error. Changes that pass a
  /// reader's limit only together are written as
  /// ``applyFitting(_:inOrder:refusals:wholeValues:)`` does, so that exactly the one that passes
  /// it is refused so.
  @discardableResult
  private func flushPending() -> PropertyListError? {
    let taken = lock.withLock {
      flushScheduled = false
      flushPacing.noteStart()
      return pending.take()
    }
    var changes = taken.latest
    guard !changes.isEmpty else { return nil }
    // The file's values of the changed keys: the write compares with them (and records them in
    // the change history); a write that encodes every value takes them from memory.
    let fileValues = taken.fileValues
    var refusals: [PropertyListError] = []
    do {
      disk?.document.values = fileValues
      let wasRead = try applyFitting(
        &changes, inOrder: { taken.keysInOrderMade }, refusals: &refusals,
        wholeValues: { written in self.valuesInFile(applying: written, takenFrom: taken) })
      let refused = Set(taken.latest.keys).subtracting(changes.keys)
      if wasRead {
        let values = disk?.document.values ?? [:]
        disk?.document.values = [:]
        // Another writer's version was read under the lock and this one written over it:
        // its mark is gone, so who made those changes is not known.
        merge(
          values,
          changedKeys: PropertyListDiff.changedKeys(from: allValues(), to: values)
            .union(refused), writer: .unknown)
      } else {
        disk?.document.values = [:]
        merge(fileValues, changedKeys: refused, writer: .unknown)
      }
      // The values replaced and the encoding's buffers are freed by now.
      if let written = disk?.version?.identity.byteCount {
        FreedMemory.release(afterWritingFileOf: written, path: file.url.path)
      }
      guard let refusal = refusals.first else { return nil }
      lock.withLock {
        latestError = refusal
        unreportedRefusal = refusal
      }
      for refusal in refusals { Diagnostics.report("PropertyListDefaults", "\(refusal)") }
      return refusal
    } catch {
      let failure = PropertyListError(wrapping: error, file: file.url, kind: .unwritable)
      let isNew: Bool = lock.withLock {
        pending.restore(changes, fileValues: fileValues)
        if failure.kind == .malformed { fileError = failure }
        defer { latestError = failure }
        return latestError != failure
      }
      if isNew { Diagnostics.report("PropertyListDefaults", "\(failure)") }
      return failure
    }
  }

  /// Applies `changes` to the file in one write; when the file refuses them because together
  /// they would pass a limit of its readers (its size, or what it expands to when read), writes
  /// them in parts instead, in the order they were made (`order`), halving a refused part, until
  /// the change that passes the limit is alone and refused by its key. So a change is refused
  /// only when it passes a limit on top of every change made before it, and every other change
  /// is written: a flush never fails for ever on changes each of which was accepted. A change
  /// refused by its key is removed from `changes`, its error added to `refusals`.
  ///
  /// `wholeValues` gives every value of the file with the changes passed to it applied, for a
  /// write that encodes the whole document while `disk` holds the changed keys' values only
  /// (``PropertyListFile/apply(_:known:wholeValues:)``); it is passed the changes written before
  /// and the part being written.
  ///
  /// - Returns: Whether a write read the file (another writer changed it).
  /// - Throws: The first other failure (`changes` then still holds the changes not refused).
  private func applyFitting(
    _ changes: inout [PropertyListKey: PropertyListChange],
    inOrder order: () -> [PropertyListKey], refusals: inout [PropertyListError],
    wholeValues: @escaping ([PropertyListKey: PropertyListChange]) -> [PropertyListKey: Any]
  ) throws -> Bool {
    var wasRead = false
    var written: [PropertyListKey: PropertyListChange] = [:]
    func apply(_ part: [PropertyListKey: PropertyListChange], keys: [PropertyListKey]?) throws {
      var part = part
      while !part.isEmpty {
        do {
          // Once a part's write read the file, `disk` holds every value of the file.
          let whole =
            wasRead ? nil : { [written, part] in wholeValues(written.merging(part) { $1 }) }
          wasRead = try file.apply(part, known: &disk, wholeValues: whole) || wasRead
          written.merge(part) { $1 }
          return
        } catch let error as PropertyListError {
          if case .invalidValue(let key) = error.kind, part[key] != nil {
            part[key] = nil
            changes[key] = nil
            refusals.append(error)
            continue
          }
          guard error.passesReadersLimit, part.count > 1 else { throw error }
          let ordered = (keys ?? order()).filter { part[$0] != nil }
          for half in [ordered[..<(ordered.count / 2)], ordered[(ordered.count / 2)...]] {
            let keys = Set(half)
            try apply(part.filter { keys.contains($0.key) }, keys: Array(half))
          }
          return
        }
      }
    }
    try apply(changes, keys: nil)
    // A refused write forgets the version on disk: take it again (nothing is written), for the
    // merge of what is on disk.
    if disk == nil { wasRead = try file.apply([:], known: &disk) || wasRead }
    return wasRead
  }

  /// Asks for a re-read on ``queue``; several requests before it runs make one re-read.
  func fileDidChange() {
    let mustSchedule = lock.withLock {
      defer { reloadScheduled = true }
      return !reloadScheduled
    }
    if mustSchedule { queue.async { self.reload() } }
  }

  /// Re-reads the file and merges it unless it is still the version last read or written
  /// (``PropertyListFile/isStill(_:)``: then it is not parsed). A file that does not parse, or
  /// that is empty or gone while this process holds values, is read again after a pause before
  /// anyone is told (``PropertyListFile/readingAfterWriters(waitingUntil:suspecting:_:)``):
  /// another program writing it in place must not read as "every key removed". A file still
  /// malformed then keeps the last good values in memory and refuses writes until it parses
  /// again. A writer holding the file's lock is waited for before each read, at most 5 s in all
  /// (``ReaderLock``).
  ///
  /// The heap is trimmed (``FreedMemory``) once the re-read's memory is freed, when this
  /// function's locals are: trimmed inside it, the file's bytes and the values replaced were
  /// still held, and each re-read left them resident in the heap of whichever thread ran it.
  ///
  /// - Returns: The failure, or the file's known parse failure when it is unchanged.
  @discardableResult
  private func reload() -> PropertyListError? {
    let (failure, rereadKeys) = rereadAndMerge()
    if let rereadKeys {
      FreedMemory.release(afterReplacingDocumentOf: rereadKeys, path: file.url.path)
    }
    return failure
  }

  /// The work of ``reload()``: its result, and the number of keys read when the file was read.
  private func rereadAndMerge() -> (PropertyListError?, rereadKeys: Int?) {
    lock.withLock { reloadScheduled = false }
    let deadline = ContinuousClock.now + ReaderLock.longestWait
    // Unchanged: nothing to read, and no error to clear (a refused write stays `lastError`
    // until a write succeeds or the file's bytes change).
    if isAsLastRead(waitingUntil: deadline) { return (lock.withLock { fileError }, nil) }
    do {
      var previous = valuesInFile()
      // Each attempt waits for a writer that holds the lock, until the same deadline.
      var (snapshot, changedKeys) = try file.readingAfterWriters(
        waitingUntil: deadline,
        suspecting: { reread in
          !previous.isEmpty && (reread.snapshot?.version?.identity.isEmpty ?? true)
        },
        { () throws -> (snapshot: PropertyListSnapshot?, changedKeys: Set<PropertyListKey>) in
          try file.rereadChanges(comparingTo: previous, since: &disk)
        })
      // Memory's values are changed in place only when this is not a second reference to them:
      // else each change of one key copied the whole dictionary.
      previous = [:]
      // The values read (the changed keys', or every value of a file parsed whole) go into
      // memory; the version keeps none.
      let read = snapshot?.document.values ?? [:]
      let keyCount = snapshot?.state.entries?.keys.count ?? read.count
      snapshot?.document.values = [:]
      disk = snapshot ?? PropertyListSnapshot(document: PropertyListDocument(), version: nil)
      let writer = WriterMark.writer(
        ofFileAt: file.url.path, readAs: snapshot?.version?.identity)
      merge(read, changedKeys: changedKeys, writer: writer)
      return (nil, keyCount)
    } catch {
      let failure = PropertyListError(wrapping: error, file: file.url, kind: .unreadable)
      let targets: ObserverList<Void> = lock.withLock {
        if failure.kind == .malformed { fileError = failure }
        defer { latestError = failure }
        return latestError == failure ? .none : readabilityObservers
      }
      targets.notify(())
      return (failure, nil)
    }
  }

  /// Whether the file is still the version last read or written (``PropertyListFile/isStill(_:)``,
  /// which notes a confirmed version in ``disk``), or still missing as it was then: looked at
  /// while no writer holds the file's lock (``ReaderLock``), waited for until `deadline`. The
  /// lock is released before any read, which takes its own.
  private func isAsLastRead(waitingUntil deadline: ContinuousClock.Instant) -> Bool {
    let writers = ReaderLock(guarding: file.url, until: deadline)
    defer { writers.release() }
    if var version = disk?.version, file.isStill(&version) {
      disk?.version = version
      return true
    }
    guard let disk, disk.version == nil else { return false }
    return FileIdentity.ofFile(atPath: file.url.path) == nil
  }

  /// Makes memory match `disk` (the file's values) for `changedKeys` (the keys in which `disk`
  /// differs from memory, read while no flush could run) without a pending write, and tells
  /// observers about them, as changes by `writer`; a changed key with a pending write keeps it,
  /// and its value in the file is noted for the flush. Clears the errors; flushes writes kept
  /// back while the file was malformed.
  private func merge(
    _ disk: [PropertyListKey: Any], changedKeys: Set<PropertyListKey>,
    writer: DefaultsChange.Writer
  ) {
    lock.lock()
    var changedKeys = changedKeys
    if !changedKeys.isEmpty && !pending.isEmpty {
      let pendingKeys = changedKeys.intersection(pending.keys)
      pending.noteFileValues(disk, forKeys: pendingKeys)
      changedKeys.subtract(pendingKeys)
    }
    // The values before and after go with the change report (when someone is told): a program
    // that shows them (the settings editor's change log) needs no copy of every value.
    let tells = observers.count > 0
    var (before, after) = ([PropertyListKey: Any](), [PropertyListKey: Any]())
    if !changedKeys.isEmpty { slots.forget() }
    for key in changedKeys {
      let old: Any?
      if let new = disk[key] {
        old = values.updateValue(new, forKey: key)
        if tells { after[key] = new }
      } else {
        old = values.removeValue(forKey: key)
      }
      if tells { before[key] = old }
    }
    fileError = nil
    let readable: ObserverList<Void> = latestError == nil ? .none : readabilityObservers
    latestError = nil
    hasReadFile = true
    let mustFlush = !pending.isEmpty && !flushScheduled
    if mustFlush { flushScheduled = true }
    let targets = changedKeys.isEmpty ? .none : observers
    lock.unlock()
    if mustFlush { queue.async { self.flushPending() } }
    targets.notify(
      DefaultsChange(
        exactKeys: changedKeys, origin: .otherProcess, writer: writer, before: before,
        after: after))
    readable.notify(())
  }

  /// The file's values, as this process last read or wrote them: memory's less the pending
  /// writes. Shares memory's storage while no write is pending; else a copy (for a re-read that
  /// compares the file with them).
  private func valuesInFile() -> [PropertyListKey: Any] {
    let (memory, writes) = lock.withLock { (self.values, self.pending) }
    guard !writes.isEmpty else { return memory }
    var fileValues = memory
    writes.revert(&fileValues)
    return fileValues
  }

  /// The file's values with `changes`, taken from the pending writes as `taken`, applied: for
  /// a flush that encodes every value (a copy of memory's values, less the writes made since).
  private func valuesInFile(
    applying changes: [PropertyListKey: PropertyListChange], takenFrom taken: PendingChanges
  ) -> [PropertyListKey: Any] {
    var document = PropertyListDocument(values: valuesInFile())
    taken.revert(&document.values)
    document.apply(changes)
    return document.values
  }

  /// Adds an observer of the file's readability: called when a re-read fails with a new error
  /// or reads the file again after a failure, even when no value changed.
  func addReadabilityObserver(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
    addObserver({ _ in handler() }, to: \.readabilityObservers)
  }

  /// Starts following changes of the file on disk (by other processes and hand edits) through
  /// the process's one ``DirectoryWatcher``; the registry calls it once, for a new storage.
  func startWatching() {
    let watch = DirectoryWatcher.shared.watch(fileAt: file.url) { [weak self] in
      self?.fileDidChange()
    }
    lock.withLock { fileWatch = watch }
  }

  deinit {
    SuiteStorageRegistry.shared.remove(self)
  }
}

extension PropertyListChange {
  /// The value the change stores; nil for a removal.
  fileprivate var storedValue: Any? {
    guard case .set(let value) = self else { return nil }
    return value
  }
}

/// A key a write of several keys changed, with its values before and after (a struct: a tuple
/// holding existentials is copied through the runtime's generic tuple witnesses).
private struct WrittenChange {
  let key: PropertyListKey
  let before: Any?
  let after: Any?
}
