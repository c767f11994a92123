import Foundation
import ObservableDefaultsTesting

/// Where a run keeps its suites, and the tools it found: a scratch folder; as root, an ext4 image
/// with 1-second timestamps (`mkfs.ext4 -I 128`, `/work/shared/README.md` fact 20) for the XML
/// suite and a 1 MiB tmpfs for the suite that runs out of space; the allocation-failure shim
/// built with the toolchain's clang; libfiu's preload libraries; `plutil`; `faketime`.
///
/// ``remove()`` unmounts and removes everything, also when the run is interrupted (`SIGINT`,
/// `SIGTERM`: see ``removeOnSignals()``).
final class Workspace: @unchecked Sendable {
  let scratch: TemporaryFolder
  /// The folder of the binary suite (in `/dev/shm` when there is one: the oversize value is
  /// 270 MiB).
  let binaryFolder: URL
  /// The folder of the XML suite: the ext4 image with 1-second timestamps when it could be
  /// mounted, else the scratch folder.
  let xmlFolder: URL
  /// The folder of the suite that runs out of space: a 1 MiB tmpfs, nil when it could not be
  /// mounted (not root).
  let fullFolder: URL?
  /// `LD_PRELOAD` for our writers: libfiu's preloads and the allocation shim (whichever exist).
  let writerPreload: String
  let plutil: String?
  /// libfaketime (Debian faketime), preloaded into the writer whose clock runs ahead.
  let faketime: String?
  private var mounts: [String] = []
  /// The writers started under libfaketime and not yet retired (see ``removeFaketimeFiles(of:)``).
  private var faketimeProcesses: Set<Int32> = []
  private let lock = NSLock()

  /// Prepares the folders and tools, printing one line for each one it could not make.
  ///
  /// - Throws: The error of making the scratch folders.
  init(resources: URL) throws {
    let shm = FileManager.default.fileExists(atPath: "/dev/shm")
    scratch =
      try shm
      ? TemporaryFolder(at: URL(fileURLWithPath: "/dev/shm/storage-torture-\(getpid())"))
      : TemporaryFolder(prefix: "storage-torture")
    binaryFolder = scratch.file("binary")
    try FileManager.default.createDirectory(at: binaryFolder, withIntermediateDirectories: true)
    let isRoot = getuid() == 0
    var mounted: [String] = []
    // The ext4 image lives on a disk folder: an image inside tmpfs works as well, but costs memory.
    let imageFolder = try TemporaryFolder(prefix: "storage-torture-image")
    let image = imageFolder.file("coarse.img").path
    let coarse = scratch.file("coarse")
    try FileManager.default.createDirectory(at: coarse, withIntermediateDirectories: true)
    if isRoot, Self.run("truncate", ["-s", "96M", image]),
      Self.run("mkfs.ext4", ["-q", "-F", "-I", "128", image]),
      Self.run("mount", ["-o", "loop", image, coarse.path])
    {
      mounted.append(coarse.path)
      xmlFolder = coarse
    } else {
      say(
        "note: no ext4 image with 1-second timestamps (needs root and mkfs.ext4); the splice race is weaker"
      )
      xmlFolder = scratch.file("xml")
      try FileManager.default.createDirectory(at: xmlFolder, withIntermediateDirectories: true)
    }
    imageFolder.remove()  // the mounted image stays alive until unmounted
    let full = scratch.file("full")
    try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
    if isRoot, Self.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", full.path]) {
      mounted.append(full.path)
      fullFolder = full
    } else {
      say("note: no 1 MiB tmpfs (needs root): no disk-full steps")
      fullFolder = nil
    }
    mounts = mounted
    let fiu = ["/usr/lib/fiu/fiu_run_preload.so", "/usr/lib/fiu/fiu_posix_preload.so"]
      .filter { FileManager.default.fileExists(atPath: $0) }
    let hasFiu = fiu.count == 2
    if !hasFiu { say("note: libfiu is not installed (Debian fiu-utils): no I/O failures") }
    let shim = scratch.file("allocation_failure.so").path
    let hasAllocationShim =
      Self.run(
        Self.which("clang") ?? "cc",
        [
          "-shared", "-fPIC", "-O2", "-o", shim,
          resources.appendingPathComponent("allocation_failure.c").path,
        ])
    if !hasAllocationShim { say("note: the allocation shim did not build: no allocation failures") }
    // The shim first: libfiu's preload wraps malloc too, and the shim tells the program's own
    // allocations by their caller.
    writerPreload = ((hasAllocationShim ? [shim] : []) + (hasFiu ? fiu : [])).joined(separator: " ")
    plutil = Self.which("plutil")
    faketime = [
      "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
      "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/faketime/libfaketime.so.1",
    ]
    .first { FileManager.default.fileExists(atPath: $0) }
    if plutil == nil { say("note: no plutil on PATH: no plutil steps") }
    if faketime == nil {
      say("note: no faketime (Debian faketime): the splice race runs on the real clock")
    }
  }

  /// The folder `name` of `PATH` holds an executable of, or nil.
  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs `command` (found on `PATH`) to the end, its output discarded; whether it exited 0.
  @discardableResult
  static func run(_ command: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationReason == .exit && process.terminationStatus == 0
  }

  /// Notes a writer started under libfaketime, whose files ``remove()`` removes if the run ends
  /// before the writer is retired.
  func startedUnderFaketime(_ process: Int32) {
    lock.withLock { _ = faketimeProcesses.insert(process) }
  }

  /// Removes the shared-memory segment and semaphore libfaketime keeps in `/dev/shm` for
  /// `process` (its own exit handler removes them, but a killed process leaves them).
  func removeFaketimeFiles(of process: Int32) {
    lock.withLock { _ = faketimeProcesses.remove(process) }
    for name in ["faketime_shm_\(process)", "sem.faketime_sem_\(process)"] {
      try? FileManager.default.removeItem(atPath: "/dev/shm/" + name)
    }
  }

  /// Unmounts what it mounted (lazily, so a process still holding a file cannot keep it),
  /// removes the scratch folder and the files of the writers under libfaketime. Safe to call
  /// more than once.
  func remove() {
    let (toUnmount, underFaketime) = lock.withLock {
      defer { mounts = [] }
      return (mounts, faketimeProcesses)
    }
    for mount in toUnmount where !Self.run("umount", [mount]) {
      Self.run("umount", ["-l", mount])
    }
    scratch.remove()
    for process in underFaketime { removeFaketimeFiles(of: process) }
  }

  /// Removes the workspace when the driver is interrupted or terminated, then exits 130.
  func removeOnSignals() -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM, SIGHUP].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [self] in
        remove()
        exit(130)
      }
      source.resume()
      return source
    }
  }
}
