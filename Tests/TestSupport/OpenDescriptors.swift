import Foundation

/// The numbers of the descriptors that process `pid` (this process by default) has open on the
/// file at `url`, symbolic links resolved (from `/proc/<pid>/fd`): to see that a process is
/// waiting on a lock file, or to copy a descriptor of this process's.
public func openDescriptors(of url: URL, inProcess pid: Int32 = getpid()) -> [Int32] {
  let path = url.resolvingSymlinksInPath().path
  let folder = "/proc/\(pid)/fd"
  let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
  return names.compactMap { name in
    guard let number = Int32(name),
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) == path
    else { return nil }
    return number
  }
}
