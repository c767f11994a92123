/// What one step of a run does (see each case); the summary counts the steps of each.
enum Operation: String, CaseIterable {
  /// One of our writers sets (small, large, nested or Unicode values), removes or renames a key.
  case write
  /// Keys that differ only in Unicode normalisation written apart, then another key.
  case normalisation
  /// A string holding characters XML 1.0 cannot carry (U+0001, ESC, NUL) or a CR.
  case controlCharacters = "control-characters"
  /// Two of our writers of one suite write disjoint keys at once.
  case concurrentWrites = "concurrent-writes"
  /// A writer killed with `SIGKILL` at a random point of a write.
  case kill
  /// A write with libfiu failing write, pwrite, fsync, rename, open or read at random.
  case ioFailure = "io-failure"
  /// A 3 MB write whose flush cannot allocate its large buffers (2 MiB or more).
  case allocationFailure = "allocation-failure"
  /// A write larger than the space left on a 1 MiB tmpfs, then the key removed.
  case diskFull = "disk-full"
  /// A 270 MiB value (data): a file past the 256 MiB read limit; then a foreign writer removes it.
  case oversize
  /// python3 plistlib: load, change, write a temporary file, rename over the suite.
  case foreignReplace = "foreign-replace"
  /// python3 with the suite's lock rewrites the file in place slowly while one of our writers
  /// writes another key.
  case foreignInPlaceLocked = "foreign-in-place-locked"
  /// python3 without the lock rewrites the file in place while one of our writers writes.
  case foreignInPlaceRace = "foreign-in-place-race"
  /// python3 empties the file, closes it, then writes it (`: > f; cat new > f`).
  case foreignTruncateWrite = "foreign-truncate-write"
  /// The toolchain's `plutil -replace`.
  case plutil
  /// On the XML suite: a writer whose clock runs 10 s ahead (a network file system's server
  /// clock behind) writes and synchronizes, python swaps two entries in place (same size, same
  /// second), and the writer writes again: its flush must not splice at the old offsets.
  case spliceRace = "splice-race"

  /// How often a step is this operation, against the other weights.
  var weight: Int {
    switch self {
    case .write: 10
    case .kill, .ioFailure: 4
    case .normalisation, .concurrentWrites, .foreignReplace, .spliceRace: 3
    case .controlCharacters, .diskFull, .foreignInPlaceLocked, .foreignInPlaceRace,
      .foreignTruncateWrite, .plutil:
      2
    case .allocationFailure, .oversize: 1
    }
  }
}
