import Foundation

/// The one reader of XML property lists: a single pass over the text (UTF-8) that checks it,
/// builds its values by exact key, and finds the entries of its top dictionary — instead of a
/// validator's walk, then an indexer's, then Foundation's parse.
///
/// The grammar is CoreFoundation's (`CFPropertyList.c` in swift-corelibs-foundation, the parser
/// Foundation's `PropertyListSerialization` runs): comments, processing instructions and a
/// document type without an internal subset around the elements; `<plist>` around the root
/// (or the root alone); in `<key>`, `<string>` and `<real>`, CDATA sections, XML's five
/// predefined entities and character references; a `<key>` element where a value is expected
/// is a string. Text is kept as written, line ends and control characters included, as
/// CoreFoundation and swift-foundation's `XMLPlistScanner` keep it: a carriage return stays a
/// carriage return, so a value or key a Mac wrote with one (CoreFoundation writes it raw) reads
/// back the same and stays apart from the key with a line feed. (python's `plistlib`, through
/// expat, turns it into a line feed, XML 1.0 §2.11, and refuses a control character such as
/// U+0010.) A key held twice keeps the value met last, as CoreFoundation and python's
/// `plistlib` do (``NestedDictionary``).
///
/// What is refused, with the line: markup it does not know, an element count or nesting beyond
/// ``PropertyListLimits``, text that is not UTF-8, an unknown entity, `<integer>` text that is
/// not a decimal (or `0x` hexadecimal) integer within −2⁶³…2⁶⁴−1, `<real>` text that is not a
/// number, `<date>` text that is not `YYYY-MM-DDTHH:MM:SSZ` naming a real day and time (four to
/// six year digits), `<data>` that is not Base64 (see ``XMLScalarText``), a dictionary holding
/// only `CF$UID` (a keyed archiver's reference, which preferences cannot hold), and text after
/// the root element other than white space, comments and processing instructions (Foundation
/// ignores it; it is the old tail of a file rewritten in place, shorter).
struct XMLPropertyListScanner {
  let bytes: UnsafeRawBufferPointer
  var position = 0
  /// Whether values are built; else they are only checked (a re-read builds only the entries
  /// that changed, ``XMLPropertyListEntries/changes(of:since:previous:)``).
  let building: Bool
  /// Whether the entries of the top dictionary are found (only in the bytes of the file: not
  /// after a conversion from another encoding).
  let indexing: Bool
  /// How many entries the top dictionary is expected to hold when indexing (a re-read's: the
  /// version before's count), so that their list is made once at its size: grown by doubling,
  /// it copied itself and faulted in new pages (blocks of a MiB and more, which the editor and
  /// `watch` map afresh) seven times at 100,000 entries.
  var expectedTopEntries = 0
  private var budget: PropertyListReadBudget
  /// Whether only white space was skipped by the last ``content()``.
  var skippedOnlySpace = true
  /// The name of the last value element read.
  private var lastElement = ElementName.other
  /// Whether the Base64 text of a `<data>` element that is an entry's whole value in the top
  /// dictionary is left unchecked, its place kept in ``deferredData`` instead: a re-read decodes
  /// the changed ones, which checks them, and checks only the others
  /// (``XMLPropertyListEntries/changes(of:since:previous:)``). Never when building.
  let defersTopData: Bool
  /// Whether the value element being read is an entry's whole value in the top dictionary.
  private var readingTopValue = false
  /// The position of the top dictionary's entry being read.
  private var topEntry = 0
  /// The texts of the top dictionary's `<data>` values not checked (``defersTopData``), in the
  /// order of the file, with the position of their entry.
  private(set) var deferredData: [(entry: Int, text: Range<Int>)] = []

  /// Keeps the place of the text of the `<data>` value being read, not checked
  /// (``defersTopData``).
  mutating func deferCheck(of text: Range<Int>) {
    deferredData.append((entry: topEntry, text: text))
  }

  /// Where the entries of a few keys are in the top dictionary, when looking for them (a
  /// one-shot write's keys, ``XMLPropertyListPlaces``).
  private(set) var places: XMLPropertyListPlaces?
  /// Whether the top dictionary's plain entries are read by the fast path
  /// (``PlainEntryReader/entry(at:)``); off only to compare with the general walk
  /// (``XMLPropertyListFastPath/isEnabled``).
  let takesPlainEntries = XMLPropertyListFastPath.isEnabled
  /// The entries the fast path read.
  private(set) var plainEntries = 0
  /// Where the fast path handed over to the general walk (the first 16 places; the top
  /// dictionary's end is one), and how many times.
  private(set) var handOvers: (first: [Int], count: Int) = ([], 0)

  init(
    bytes: UnsafeRawBufferPointer, limits: PropertyListLimits, building: Bool, indexing: Bool,
    finding keys: [PropertyListKey]? = nil, defersTopData: Bool = false
  ) {
    self.bytes = bytes
    self.building = building
    self.indexing = indexing
    self.defersTopData = defersTopData && !building
    places = keys.map(XMLPropertyListPlaces.init)
    budget = PropertyListReadBudget(limits: limits, size: bytes.count)
  }

  /// What a scan of a whole document found.
  struct Document {
    /// The root value (built, else `()`); a top dictionary is a `[PropertyListKey: Any]`.
    var root: Any
    /// The entries of the top dictionary, when indexing and the dictionary is in the plain
    /// form (see ``XMLPropertyListEntries``).
    var topDictionary: XMLPropertyListEntries.Dictionary?
  }

  /// Whether `bytes` (UTF-8, optionally with a byte-order mark) start, after white space, with `<`.
  static func looksLikeXML(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: "<")
  }

  /// Reads the whole document.
  ///
  /// - Throws: ``PropertyListRejection`` naming what is wrong and its line.
  mutating func document() throws(PropertyListRejection) -> Document {
    guard bytes.baseAddress != nil else { throw rejection("it is empty") }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    guard try content() == .start else { throw rejection("no element was found") }
    var topDictionary: XMLPropertyListEntries.Dictionary?
    let root: Any
    let rootStart = position
    let tag = try startTag()
    if tag.name == .plist {
      guard !tag.isEmpty else { throw rejection("<plist/> holds no value") }
      guard try content() == .start else { throw rejection("<plist> holds no value") }
      (root, topDictionary) = try topValue()
      guard try content() == .end else {
        throw rejection("<plist> holds more than one value")
      }
      try closeTag("plist")
    } else {
      position = rootStart
      (root, topDictionary) = try topValue()
    }
    try checkNothingFollowsTheDocument()
    return Document(root: root, topDictionary: topDictionary)
  }

  /// The value of one element that makes the whole of `bytes` (a re-read's changed entry).
  ///
  /// - Throws: ``PropertyListRejection`` when the text is not one value element.
  mutating func lone() throws(PropertyListRejection) -> Any {
    guard try content() == .start else { throw rejection("no element was found") }
    let value = try value()
    try checkNothingFollowsTheDocument()
    return value
  }

  /// The root value at ``position``: a dictionary is the top one (exact keys, entries).
  private mutating func topValue() throws(PropertyListRejection) -> (
    Any, XMLPropertyListEntries.Dictionary?
  ) {
    let start = position
    let tag = try startTag()
    guard tag.name == .dict else {
      position = start
      return (try value(), nil)
    }
    // An empty one has no place for a new entry: no entries.
    guard !tag.isEmpty else { return (building ? [PropertyListKey: Any]() : (), nil) }
    return try topDictionary()
  }

  /// The value element at ``position`` (a start tag), which it moves past.
  mutating func value() throws(PropertyListRejection) -> Any {
    let start = position
    let isTopValue = readingTopValue
    readingTopValue = false
    let tag = try startTag()
    defer { lastElement = tag.name }
    switch tag.name {
    case .dict:
      guard !tag.isEmpty else { return building ? [String: Any]() : () }
      return try nested { (scanner) throws(PropertyListRejection) in try scanner.dictionary() }
    case .array:
      guard !tag.isEmpty else { return building ? [Any]() : () }
      return try nested { (scanner) throws(PropertyListRejection) in try scanner.array() }
    case .string, .key:
      guard !tag.isEmpty else { return building ? "" : () }
      let text = try self.text(of: tag.name)
      return building ? text.string : ()
    case .true, .false:
      if !tag.isEmpty { try closeTag(tag.name == .true ? "true" : "false") }
      return building ? tag.name == .true : ()
    case .integer, .real, .date, .data:
      guard !tag.isEmpty else { throw rejection("<\(tag.name.rawValue)/> holds no value") }
      return try scalar(tag.name, deferring: isTopValue && defersTopData)
    case .plist, .other:
      position = start
      throw rejection("<\(nameText(of: tag))> is not a property-list element")
    }
  }

  /// `body` one level deeper.
  private mutating func nested<Value>(
    _ body: (inout XMLPropertyListScanner) throws(PropertyListRejection) -> Value
  ) throws(PropertyListRejection) -> Value {
    if let problem = budget.enter() { throw rejection(problem) }
    defer { budget.leave() }
    return try body(&self)
  }

  /// The entries of a dictionary inside a value, whose start tag was just read.
  private mutating func dictionary() throws(PropertyListRejection) -> Any {
    var dictionary = NestedDictionary()
    var count = 0
    var isReference = false
    while let (key, value) = try entry() {
      count += 1
      isReference = lastElement == .integer && isUIDKey(key)
      if building { dictionary.set(value, forKey: key.string) }
    }
    try closeTag("dict")
    if count == 1, isReference {
      throw rejection(
        "a dictionary holding only CF$UID is a keyed archiver's reference, which "
          + "preferences cannot hold")
    }
    return building ? dictionary.value : ()
  }

  /// The elements of an array whose start tag was just read.
  private mutating func array() throws(PropertyListRejection) -> Any {
    var array: [Any] = []
    while try content() == .start {
      let element = try value()
      if building { array.append(element) }
    }
    try closeTag("array")
    return building ? array : ()
  }

  /// The top dictionary, whose start tag was just read: its values by exact key, and its
  /// entries when indexing and every key is in the plain form.
  private mutating func topDictionary() throws(PropertyListRejection) -> (
    Any, XMLPropertyListEntries.Dictionary?
  ) {
    if let problem = budget.enter() { throw rejection(problem) }
    defer { budget.leave() }
    let contentsStart = position
    var values: [PropertyListKey: Any] = [:]
    var entries: [XMLPropertyListEntries.Entry]? = indexing ? [] : nil
    entries?.reserveCapacity(expectedTopEntries)
    var end = position
    // Where the last value element read ends.
    var valueEnd = position
    let reader = plainEntryReader
    while true {
      if takesPlainEntries, let plain = reader.entry(at: position) {
        if take(plain, reading: reader, into: &values) {
          lastElement = plain.element
          position = plain.value.upperBound
          plainEntries += 1
          note(
            key: plain.key, start: plain.start, value: plain.value.lowerBound, after: &valueEnd,
            &entries)
          continue
        }
      }
      if takesPlainEntries {
        if handOvers.count < 16 { handOvers.first.append(position) }
        handOvers.count += 1
      }
      let next = try content()
      if !skippedOnlySpace { notPlain(&entries) }
      end = position
      guard next == .start else { break }
      let start = position
      let (key, valueStart) = try keyOfEntry()
      if !skippedOnlySpace || !key.isPlain { notPlain(&entries) }
      readingTopValue = true
      let value = try self.value()
      if building { values[PropertyListKey(key.string)] = value }
      note(key: key.raw, start: start, value: valueStart, after: &valueEnd, &entries)
    }
    places?.end = valueEnd
    try closeTag("dict")
    return (
      building ? values : (),
      entries.map { XMLPropertyListEntries.Dictionary(entries: $0, contents: contentsStart..<end) }
    )
  }

  /// Counts the elements of the entry the fast path read and keeps what it holds (its value by
  /// exact key when building, its `<data>` text when deferred); false takes nothing (the general
  /// walk reads it): a value a check refuses as it is built, or the element limit reached.
  @inline(__always)
  private mutating func take(
    _ plain: PlainEntry, reading reader: PlainEntryReader,
    into values: inout [PropertyListKey: Any]
  ) -> Bool {
    if building {
      guard let (key, value) = reader.builtEntry(plain), budget.reserve(2) else { return false }
      values[PropertyListKey(key)] = value
      return true
    }
    guard budget.reserve(2) else { return false }
    if plain.element == .data, defersTopData { deferCheck(of: plain.text) }
    return true
  }

  /// Takes the top dictionary's entry just read (its value element from `valueStart` to
  /// ``position``), after the value element that ended at `valueEnd`, which it moves.
  @inline(__always)
  private mutating func note(
    key: Range<Int>, start: Int, value valueStart: Int, after valueEnd: inout Int,
    _ entries: inout [XMLPropertyListEntries.Entry]?
  ) {
    topEntry += 1
    places?.note(key: key, value: valueStart..<position, after: valueEnd, in: bytes)
    valueEnd = position
    if entries != nil {
      let value = valueStart..<position
      entries!.append(
        XMLPropertyListEntries.Entry(
          key: key,
          fingerprint: XMLPropertyListEntries.fingerprint(key: key, value: value, in: bytes),
          start: start, value: value))
    }
  }

  /// Notes that the top dictionary is not in the plain form: no entries, no places.
  private mutating func notPlain(_ entries: inout [XMLPropertyListEntries.Entry]?) {
    entries = nil
    places?.isPlain = false
  }

  /// Whether `key` is `CF$UID`, which makes a dictionary of one integer a keyed archiver's
  /// reference in CoreFoundation's parser.
  private func isUIDKey(_ key: Text) -> Bool {
    guard !building, key.isPlain else { return key.string == "CF$UID" }
    let text = UnsafeRawBufferPointer(rebasing: bytes[key.raw])
    return text.elementsEqual("CF$UID".utf8)
  }

  /// The next entry of a dictionary, or nil at its end tag (not read).
  private mutating func entry() throws(PropertyListRejection) -> (key: Text, value: Any)? {
    guard try content() == .start else { return nil }
    let (key, _) = try keyOfEntry()
    return (key, try value())
  }

  /// The `<key>` element at ``position`` and where the value after it starts (after white
  /// space, comments and processing instructions).
  private mutating func keyOfEntry() throws(PropertyListRejection) -> (key: Text, valueStart: Int) {
    let tag = try startTag()
    guard tag.name == .key else {
      throw rejection("<\(nameText(of: tag))> stands where a dictionary's <key> belongs")
    }
    let textStart = position
    let key =
      tag.isEmpty ? Text(string: "", raw: position..<position, isPlain: true) : try text(of: .key)
    guard try content() == .start else {
      throw rejection("the key \"\(keyString(key, from: textStart).prefix(40))\" has no value")
    }
    return (key, position)
  }

  /// The string of `key`, whose text starts at `textStart`: made again when the scan does not
  /// build (a refusal names the key the reader names). Leaves ``position`` as it was.
  private mutating func keyString(_ key: Text, from textStart: Int) -> String {
    guard !building, !key.raw.isEmpty else { return key.string }
    let now = position
    defer { position = now }
    position = textStart
    return (try? text(of: .key, always: true).string) ?? ""
  }

  /// Throws unless only white space, comments and processing instructions follow the root
  /// element's end (XML 1.0 allows nothing else there). Foundation's parser ignores whatever
  /// follows it, so a file another program is rewriting in place (its new, shorter text written
  /// over the old, the old tail not yet cut off) would read as the new text; refused, it is read
  /// again after a pause (``PropertyListFile/retryingHalfWritten(suspecting:_:)``), as python's
  /// plistlib refuses it ("junk after document element").
  private mutating func checkNothingFollowsTheDocument() throws(PropertyListRejection) {
    do {
      guard try content() == .none else {
        throw rejection("text follows </plist> (a file being written in place?)")
      }
    } catch {
      throw rejection("text follows </plist> (a file being written in place?)")
    }
  }

  /// A refusal at ``position``, naming its line.
  func rejection(_ reason: String) -> PropertyListRejection {
    let end = min(position, bytes.count)
    var line = 1
    var offset = 0
    while offset < end, let base = bytes.baseAddress,
      let found = memchr(base + offset, 0x0A, end - offset)
    {
      line += 1
      offset = base.distance(to: UnsafeRawPointer(found)) + 1
    }
    return PropertyListRejection(reason: "XML property list, line \(line): " + reason)
  }

  /// The elements counted against the file's limit so far.
  var elementsCounted: Int { budget.count }

  /// Counts one more element against the file's limit.
  mutating func countElement() throws(PropertyListRejection) {
    if let problem = budget.count("elements") { throw rejection(problem) }
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
