import Foundation

/// A user's smallest `@ObservableDefaults` program (`minimal-defaults`: one class, one property
/// read and printed) from start to exit, against a Foundation "hello" that reads
/// `UserDefaults.standard` (`foundation-hello`): new processes, started back to back, both built
/// beside this program with the Swift runtime linked statically (`--static-swift-stdlib`).
struct StartupMeasure {
  let runs: Int

  func run(into table: ResultTable) {
    let ours = startToExit("minimal-defaults")
    let hello = startToExit("foundation-hello")
    table.add(
      ResultRow(
        measure: "Minimal `@ObservableDefaults` program: start to exit (new process)",
        samples: ours, unit: .milliseconds,
        baseline: ("static Foundation \"hello\" reading `UserDefaults`", hello),
        target: Target(text: "≤ 2× the hello", isMet: ours.median <= 2 * hello.median)))
  }

  /// `program` (beside this one) run to its end, 50 times after 3 warm-ups; stops the run when
  /// it fails.
  private func startToExit(_ program: String) -> Samples {
    let path = Worker.executable.deletingLastPathComponent().appendingPathComponent(program).path
    return timeRuns(runs: max(runs, 50), warmUps: 3) { _ in
      guard SpawnedProgram.run(path, []) == 0 else {
        abort("\(path) failed: build it with `swift build -c release --static-swift-stdlib`")
      }
    }
  }
}
