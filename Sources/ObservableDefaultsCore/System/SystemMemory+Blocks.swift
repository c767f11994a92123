import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension SystemMemory {
  /// `count` bytes, not yet written: from `malloc` below ``hugePageThreshold`` bytes, else a
  /// mapping of this process's own (`mmap`), backed by huge pages where the kernel offers them
  /// (``adviseHugePages(_:byteCount:)``). Give it back with ``deallocate(_:byteCount:)``, or
  /// hand it to a `Data` with ``data(taking:count:byteCount:)``.
  ///
  /// A large block is not taken from `malloc` because glibc gives it from its heaps once a block
  /// of that size was freed (the mapping threshold rises to the largest block freed, up to
  /// 32 MiB): each re-read or flush of a large suite on another thread then left a file's worth
  /// of free pages in another heap, resident until the next `malloc_trim`, and huge pages asked
  /// for such a block stayed on the heap after it was freed. A mapping is given back whole when
  /// the block is.
  ///
  /// - Returns: nil when memory runs out (or the block is ``refusedByteCount`` bytes or more).
  static func allocate(byteCount count: Int) -> UnsafeMutableRawPointer? {
    if let refused = refusedByteCount, count >= refused { return nil }
    guard count >= hugePageThreshold else { return malloc(count) }
    largeBlocks?.note(count)
    #if canImport(Glibc)
      let block = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
      guard let block, block != MAP_FAILED else { return nil }
      adviseHugePages(block, byteCount: count)
      return block
    #else
      return malloc(count)
    #endif
  }

  /// Gives back a block of ``allocate(byteCount:)`` (or ``resize(_:from:to:)``), of the
  /// `count` bytes it was asked for.
  static func deallocate(_ block: UnsafeMutableRawPointer, byteCount count: Int) {
    #if canImport(Glibc)
      if count >= hugePageThreshold {
        _ = munmap(block, count)
        return
      }
    #endif
    free(block)
  }

  /// A block of `count` bytes holding the first `min(old, count)` bytes of `block` (a block of
  /// `old` bytes from ``allocate(byteCount:)``, given back or kept as the result): a mapping that
  /// shrinks keeps its start and gives back its end.
  ///
  /// - Returns: nil when memory runs out (`block` is then still the caller's).
  static func resize(_ block: UnsafeMutableRawPointer, from old: Int, to count: Int)
    -> UnsafeMutableRawPointer?
  {
    let isMapped = old >= hugePageThreshold
    if !isMapped, count < hugePageThreshold { return realloc(block, count) }
    #if canImport(Glibc)
      if isMapped, count >= hugePageThreshold, count <= old {
        let kept = (count + pageSize - 1) / pageSize * pageSize
        if old > kept { _ = munmap(block + kept, old - kept) }
        return block
      }
    #endif
    guard let moved = allocate(byteCount: count) else { return nil }
    moved.copyMemory(from: block, byteCount: min(old, count))
    deallocate(block, byteCount: old)
    return moved
  }

  /// A `Data` of the first `count` bytes of `block`, a block of `byteCount` bytes from
  /// ``allocate(byteCount:)`` that the `Data` gives back when it goes.
  static func data(taking block: UnsafeMutableRawPointer, count: Int, byteCount: Int) -> Data {
    Data(
      bytesNoCopy: block, count: count,
      deallocator: .custom { block, _ in deallocate(block, byteCount: byteCount) })
  }

  /// A `Data` holding a copy of `bytes`, in a block from ``allocate(byteCount:)``.
  static func data(copying bytes: UnsafeRawBufferPointer) -> Data {
    guard bytes.count >= hugePageThreshold, let block = allocate(byteCount: bytes.count) else {
      return Data(bytes)
    }
    block.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    return data(taking: block, count: bytes.count, byteCount: bytes.count)
  }
}
