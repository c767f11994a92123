import Foundation
import ObservableDefaultsCore

/// The bytes `malloc` has handed out and not taken back: the "in use bytes" of glibc's
/// `malloc_stats` (every arena and mapping; the Glibc module does not import `malloc.h`, and
/// `mallinfo2` returns a structure), which it prints to standard error.
func heapBytesInUse() -> Int {
  typealias Stats = @convention(c) () -> Void
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_stats") else {
    fail("no malloc_stats")
  }
  let report = FileManager.default.temporaryDirectory
    .appendingPathComponent("heap-bytes-\(getpid())").path
  let output = open(report, O_CREAT | O_TRUNC | O_RDWR, 0o600)
  let standardError = dup(2)
  dup2(output, 2)
  unsafeBitCast(symbol, to: Stats.self)()
  dup2(standardError, 2)
  close(standardError)
  close(output)
  let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
  unlink(report)
  guard let total = text.components(separatedBy: "Total (incl. mmap):").last,
    let line = total.split(separator: "\n").first(where: { $0.contains("in use bytes") }),
    let bytes = line.split(separator: " ").last.flatMap({ Int($0) })
  else { fail("malloc_stats printed \(text)") }
  return bytes
}

/// A field of `/proc/self/status` in bytes ("VmRSS": resident now, "VmHWM": the most resident
/// since the start or the last ``resetResidentPeak()``).
func residentBytes(_ field: String) -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }),
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
  else { fail("no \(field) in /proc/self/status") }
  return kilobytes * 1024
}

/// Gives the heap's free pages back (glibc's `malloc_trim(0)`), then makes the resident peak
/// ("VmHWM") the resident memory now (writing 5 to `/proc/self/clear_refs`).
func resetResidentPeak() {
  typealias Trim = @convention(c) (Int) -> Int32
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else {
    fail("no malloc_trim")
  }
  _ = unsafeBitCast(symbol, to: Trim.self)(0)
  guard let clear = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
    fail("cannot open /proc/self/clear_refs")
  }
  clear.write(Data("5".utf8))
  clear.closeFile()
}

/// `core-probe rewrite-memory <file> <rewrite>`: opens the suite `file` and reads "key 1", then
/// renames `rewrite` (the whole file written again by another writer, "key 1" changed) over it
/// and synchronizes until the suite reads the new "key 1". Prints the heap's bytes in use after
/// the open, the resident peak during the re-read less the resident memory before it, and the
/// heap's bytes in use after, on three lines.
func rewriteMemory(file: String, rewrite: String) {
  let defaults = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
  let before = defaults.string(forKey: "key 1")
  print(heapBytesInUse())
  resetResidentPeak()
  let resident = residentBytes("VmRSS")
  guard rename(rewrite, file) == 0 else { fail("rename: \(String(cString: strerror(errno)))") }
  guard defaults.synchronize(), let after = defaults.string(forKey: "key 1"), after != before
  else { fail("the rewrite was not read") }
  print(residentBytes("VmHWM") - resident)
  print(heapBytesInUse())
}

/// `core-probe large-block-places [mapped]`: allocates a block of 5,000,000 bytes with `malloc`,
/// frees it, and does it again; prints where each block was, "mapping" (a mapping of its own:
/// `/proc/self/maps` has one that starts at glibc's 16-byte header before the block) or "heap",
/// on one line. With `mapped`, after ``SystemMemory/mapLargeBlocks()``.
func largeBlockPlaces(mapped: Bool) {
  if mapped { SystemMemory.mapLargeBlocks() }
  var places: [String] = []
  for _ in 0..<2 {
    guard let block = malloc(5_000_000) else { fail("malloc refused 5,000,000 bytes") }
    let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
    let header = String(UInt(bitPattern: block) - 16, radix: 16)
    let isMapping = maps.split(separator: "\n").contains { $0.hasPrefix("\(header)-") }
    places.append(isMapping ? "mapping" : "heap")
    free(block)
  }
  print(places.joined(separator: " "))
}
