#if canImport(Glibc)
  import Glibc
#endif

/// The C library's heap, and pages of memory.
enum SystemMemory {
  #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    /// `malloc_trim`, looked up with `dlsym`: the Glibc module does not import `malloc.h`.
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
      .map { unsafeBitCast($0, to: Trim.self) }
  #endif

  /// The size of a page of memory.
  static let pageSize: Int = {
    #if canImport(Glibc)
      return Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return 4096
    #endif
  }()

  /// Whether ``discardPages(_:_:)`` gives pages back (false where there is no `madvise`).
  static var canDiscardPages: Bool {
    #if canImport(Glibc)
      true
    #else
      false
    #endif
  }

  /// Gives the `count` bytes of whole pages at `start` (page-aligned) back to the system
  /// (`madvise(MADV_DONTNEED)`): they stay mapped and read as zeros afterwards.
  static func discardPages(_ start: UnsafeMutableRawPointer, _ count: Int) {
    #if canImport(Glibc)
      _ = madvise(start, count, MADV_DONTNEED)
    #endif
  }

  /// Gives the free pages of every malloc arena back to the system (`malloc_trim(0)`); does
  /// nothing where there is no `malloc_trim`.
  static func returnFreePages() {
    #if canImport(Glibc)
      _ = trim?(0)
    #endif
  }
}
