import Foundation
import Testing

/// Every system call of the core is made in `Sources/ObservableDefaultsCore/System/` (`Errno`,
/// `FileDescriptor`, `Stat`, `FileSystem`, `Inotify`, `SystemClock`, `SystemMemory`): the
/// rest of the core, and the umbrella module `Sources/ObservableDefaults` (its published schema
/// folders included), call those wrappers, so how a call is made again after `EINTR`, how its
/// error becomes a message and which flags every descriptor gets are decided once.
///
/// The check reads the modules' sources as text (comments and string literals left out) and looks
/// for C library calls written as free functions: names only the C library has (`fsync(`,
/// `inotify_add_watch(`, `clock_gettime(` …) wherever they are called, `errno`, anything
/// qualified as `Glibc.`, an `import Glibc`, and the names Swift methods share (`open`, `read`,
/// `write`, `close`, `stat`, `rename`, `access`) when called with the C function's unlabeled
/// arguments. Memory functions that make no system call (`memchr`, `memcmp`, `malloc`) are not
/// looked for.
@Suite struct SystemCallTests {
  static let sourcesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")
  static let coreFolder = sourcesFolder.appendingPathComponent("ObservableDefaultsCore")
  static let umbrellaFolder = sourcesFolder.appendingPathComponent("ObservableDefaults")

  /// C functions that no Swift method of the core is named after: any free call counts.
  static let cOnlyFunctions: Set<String> = [
    "openat", "pread", "pwrite", "fsync", "fdatasync", "renameat", "renameat2", "unlink",
    "unlinkat", "fstat", "lstat", "fstatat", "mkdir", "mkdirat", "rmdir", "flock", "fcntl",
    "ftruncate", "lseek", "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    "clock_gettime", "gettimeofday", "nanosleep", "usleep", "readlink", "readlinkat", "symlink",
    "realpath", "opendir", "fdopendir", "readdir", "closedir", "fchmod", "chmod", "fchown",
    "chown", "strerror", "dlsym", "dlopen", "malloc_trim", "getpid", "kill", "poll", "pipe",
    "pipe2", "eventfd", "dup", "dup2", "mmap", "munmap", "madvise", "posix_fadvise", "fallocate",
    "posix_fallocate", "statfs", "fstatfs", "getrandom", "sysconf", "getrusage", "futimens",
    "utimensat", "linkat", "faccessat", "epoll_create1", "epoll_ctl", "epoll_wait",
  ]

  /// C functions whose names Swift methods share, with how many unlabeled arguments the C
  /// function takes: a call with that many (and no label) is the C function.
  static let sharedNames: [String: ClosedRange<Int>] = [
    "open": 2...3, "read": 3...3, "write": 3...3, "close": 1...1, "stat": 2...2,
    "rename": 2...2, "access": 2...2,
  ]

  /// One raw call found: where, and which function.
  struct Finding: CustomStringConvertible, Equatable {
    let file: String
    let line: Int
    let name: String
    var description: String { "\(file):\(line): \(name)" }
  }

  @Test func theCoreMakesSystemCallsOnlyInItsSystemFolder() throws {
    let (scanned, findings) = try Self.scan(Self.coreFolder, skipping: "System/")
    #expect(scanned > 50)
    #expect(findings == [], "system calls outside System/: \(findings)")
  }

  @Test func theUmbrellaModuleMakesNoSystemCalls() throws {
    let (scanned, findings) = try Self.scan(Self.umbrellaFolder)
    #expect(scanned > 20)
    #expect(
      findings == [],
      "system calls in ObservableDefaults, not through the core's System/: \(findings)")
  }

  /// The raw calls of the Swift files of `folder` (but those under `skipped`, a path relative to
  /// it), each file named relative to `folder`, and how many files were read.
  static func scan(_ folder: URL, skipping skipped: String? = nil) throws -> (
    scanned: Int, findings: [Finding]
  ) {
    let files = try #require(
      FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    var findings: [Finding] = []
    var scanned = 0
    for case let url as URL in files where url.pathExtension == "swift" {
      let relative = String(url.path.dropFirst(folder.path.count + 1))
      if let skipped, relative.hasPrefix(skipped) { continue }
      scanned += 1
      findings += rawCalls(in: try String(contentsOf: url, encoding: .utf8), file: relative)
    }
    return (scanned, findings)
  }

  @Test func theScanFindsRawCallsAndNothingElse() {
    let source = """
      import Glibc
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard fsync(descriptor) == 0 else { print(String(cString: strerror(errno))) }
      let count = Glibc.read(descriptor, buffer, 10)
      var status = stat()
      if stat(path, &status) == 0 { close(descriptor) }
      try write(values)  // a method: one argument
      store.rename("a", to: "b")
      _ = try descriptor.read(into: buffer, count: 10)
      // fsync(descriptor) in a comment
      let text = "rename(a, b) in a string, \\(fsync(descriptor)) in an interpolation"
      let raw = #"unlink("path") in a raw string"#
      /* unlink(path) in a block comment */
      func open(_ url: URL) {}
      """
    let found = Self.rawCalls(in: source, file: "Sample.swift").map { "\($0.line) \($0.name)" }
    #expect(
      found == [
        "1 import Glibc", "2 open", "3 fsync", "3 strerror", "3 errno", "4 Glibc.read", "5 stat",
        "6 stat", "6 close", "11 fsync",
      ])
  }

  /// The raw C library calls in `source`.
  static func rawCalls(in source: String, file: String) -> [Finding] {
    let code = Array(withoutCommentsAndStrings(source))
    var findings: [Finding] = []
    var line = 1
    var index = 0
    func found(_ name: String) {
      findings.append(Finding(file: file, line: line, name: name))
    }
    func text(before position: Int, is suffix: String) -> Bool {
      position >= suffix.count && String(code[(position - suffix.count)..<position]) == suffix
    }
    while index < code.count {
      let character = code[index]
      if character == "\n" { line += 1 }
      guard character == "_" || character.isLetter else {
        index += 1
        continue
      }
      var end = index
      while end < code.count, code[end] == "_" || code[end].isLetter || code[end].isNumber {
        end += 1
      }
      let name = String(code[index..<end])
      defer { index = end }
      if name == "import", String(code[end..<min(end + 6, code.count)]) == " Glibc" {
        found("import Glibc")
        continue
      }
      if text(before: index, is: "Glibc.") {
        found("Glibc." + name)
        continue
      }
      guard !text(before: index, is: "."), !text(before: index, is: "func "),
        !text(before: index, is: "`")
      else { continue }
      if name == "errno" {
        found(name)
      } else if end < code.count, code[end] == "(" {
        if cOnlyFunctions.contains(name) {
          found(name)
        } else if let arity = sharedNames[name],
          let arguments = unlabeledArguments(code[(end + 1)...]),
          arity.contains(arguments) || (name == "stat" && arguments == 0)
        {
          found(name)
        }
      }
    }
    return findings
  }

  /// How many arguments the call whose text after `(` is `rest` has, when none is labeled; nil
  /// when one is labeled (a Swift call).
  static func unlabeledArguments(_ rest: ArraySlice<Character>) -> Int? {
    var depth = 0
    var arguments: [String] = []
    var current = ""
    for character in rest {
      switch character {
      case "(", "[", "{":
        depth += 1
      case ")", "]", "}":
        if depth == 0 {
          arguments.append(current)
          let written = arguments.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
          if written == [""] { return 0 }
          let labeled = written.contains { argument in
            guard let colon = argument.firstIndex(of: ":") else { return false }
            let label = argument[..<colon].trimmingCharacters(in: .whitespaces)
            return !label.isEmpty && label.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
          }
          return labeled ? nil : written.count
        }
        depth -= 1
      case "," where depth == 0:
        arguments.append(current)
        current = ""
        continue
      default:
        break
      }
      current.append(character)
    }
    return nil
  }

  /// `source` with its comments and the contents of its string literals blanked out (line
  /// breaks kept, so that line numbers stay true; interpolations kept as code).
  static func withoutCommentsAndStrings(_ source: String) -> String {
    var result = ""
    var characters = Array(source)[...]
    func take(_ prefix: String) -> Bool {
      guard characters.starts(with: prefix) else { return false }
      characters = characters.dropFirst(prefix.count)
      return true
    }
    /// Code up to the `)` that closes an interpolation (`closesInterpolation`) or the end.
    func code(closesInterpolation: Bool) {
      var depth = 0
      while let character = characters.first {
        if take("//") {
          while let next = characters.first, next != "\n" { characters = characters.dropFirst() }
        } else if take("/*") {
          while !characters.isEmpty, !take("*/") {
            if characters.first == "\n" { result.append("\n") }
            characters = characters.dropFirst()
          }
        } else if take("#\"") {
          result.append("\"\"")
          while !characters.isEmpty, !take("\"#") {
            if characters.first == "\n" { result.append("\n") }
            characters = characters.dropFirst()
          }
        } else if take("\"\"\"") {
          string(closedBy: "\"\"\"")
        } else if take("\"") {
          string(closedBy: "\"")
        } else {
          if character == "(" { depth += 1 }
          if character == ")" {
            if closesInterpolation && depth == 0 {
              characters = characters.dropFirst()
              return
            }
            depth -= 1
          }
          result.append(character)
          characters = characters.dropFirst()
        }
      }
    }
    /// A string literal's contents, after its opening quote: blanked, but for interpolations.
    func string(closedBy quote: String) {
      result.append("\"")
      while !characters.isEmpty, !take(quote) {
        if take("\\(") {
          result.append("(")
          code(closesInterpolation: true)
          result.append(")")
        } else {
          if characters.first == "\\" { characters = characters.dropFirst() }
          if characters.first == "\n" { result.append("\n") }
          characters = characters.dropFirst()
        }
      }
      result.append("\"")
    }
    code(closesInterpolation: false)
    return result
  }
}
