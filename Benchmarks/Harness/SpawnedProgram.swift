import Foundation

/// A program started with `posix_spawn` and waited for with `waitpid`.
///
/// For every time that includes a process's end: Foundation's `Process.waitUntilExit()` here
/// polls its run loop every 50 ms, and every new-process time measured through it read about
/// 51 ms (measured).
struct SpawnedProgram {
  private let pid: pid_t

  /// Starts `program`; nil when it cannot be started.
  ///
  /// - Parameters:
  ///   - input: Standard input (else `/dev/null`); standard output goes to `/dev/null`.
  ///   - environment: The environment (else this process's).
  ///   - errors: Standard error's file (else this process's standard error).
  init?(
    _ program: String, _ arguments: [String], input: URL? = nil,
    environment: [String: String]? = nil, errors: URL? = nil
  ) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input?.path ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    if let errors {
      posix_spawn_file_actions_addopen(
        &actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let variables = environment ?? ProcessInfo.processInfo.environment
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var child: pid_t = 0
    guard posix_spawn(&child, program, &actions, nil, argv, envp) == 0 else { return nil }
    pid = child
  }

  /// Waits for the end; returns the exit status (-1 when a signal ended it).
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
  }

  /// Runs `program` to its end; returns its exit status (-1 when it could not start or a signal
  /// ended it).
  @discardableResult
  static func run(
    _ program: String, _ arguments: [String], input: URL? = nil,
    environment: [String: String]? = nil, errors: URL? = nil
  ) -> Int32 {
    SpawnedProgram(program, arguments, input: input, environment: environment, errors: errors)?
      .wait() ?? -1
  }
}
