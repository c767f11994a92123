#if canImport(Glibc)
  import Glibc
#endif

/// The C library's heap.
enum SystemMemory {
  #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    /// `malloc_trim`, looked up with `dlsym`: the Glibc module does not import `malloc.h`.
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
      .map { unsafeBitCast($0, to: Trim.self) }
  #endif

  /// Gives the free pages of every malloc arena back to the system (`malloc_trim(0)`); does
  /// nothing where there is no `malloc_trim`.
  static func returnFreePages() {
    #if canImport(Glibc)
      _ = trim?(0)
    #endif
  }
}
