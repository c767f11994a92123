import Foundation

/// A document together with the file version it was read from or written as, and what the
/// process keeps of that version for its next write and re-read.
package struct PropertyListSnapshot {
  package var document: PropertyListDocument
  /// nil when there is no file.
  var version: FileVersion?
  /// What lets the next write encode only its changes, by format.
  var state: PropertyListWriteState

  /// A version read (or no file), with the entries of its top dictionary when they are known.
  init(
    document: PropertyListDocument, version: FileVersion?, state: PropertyListWriteState? = nil
  ) {
    self.document = document
    self.version = version
    self.state = state ?? .read(format: document.format, entries: nil)
  }
}

/// What a process keeps of the version of a property-list file it last read or wrote, by
/// format: the next write encodes only its changes, and the next re-read after another
/// writer's change decodes only the entries that differ (``PropertyListEntries``).
enum PropertyListWriteState {
  /// A binary file: the objects this process wrote it from (nil when it read the version; the
  /// next write adds only its changes' objects to them, see ``BinaryPropertyListDraft``), and
  /// the entries of its top dictionary when they are known.
  case binary(draft: BinaryPropertyListDraft?, entries: PropertyListEntries?)
  /// An XML file (or no file yet, or another text format): its text when a writer read it
  /// under the lock as this version (so it is not read and hashed again; never kept between
  /// writes), and its entries with their places in the text when they are known (the next
  /// write edits the text there, see ``XMLPropertyListEdit``).
  case xml(text: Data?, entries: PropertyListEntries?)

  /// The state of a version read in `format`, with its `entries` when they are known.
  static func read(
    format: PropertyListSerialization.PropertyListFormat, entries: PropertyListEntries?
  ) -> Self {
    format == .binary ? .binary(draft: nil, entries: entries) : .xml(text: nil, entries: entries)
  }

  /// The binary file's objects, when this process wrote them.
  var draft: BinaryPropertyListDraft? {
    if case .binary(let draft, _) = self { draft } else { nil }
  }

  /// The entries of the top dictionary, when they are known.
  var entries: PropertyListEntries? {
    switch self {
    case .binary(_, let entries), .xml(_, let entries): entries
    }
  }
}
