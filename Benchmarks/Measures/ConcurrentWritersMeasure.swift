import Foundation
import ObservableDefaults

/// 8 processes each writing 1,000 distinct keys into one suite at once; every key must survive.
struct ConcurrentWritersMeasure {
  let workspace: Workspace
  let runs: Int
  let processes = 8
  let keysPerProcess = 1_000

  func run(into table: ResultTable) {
    let samples = timeRuns(runs: runs) { _ in
      let file = workspace.newFile("writers")
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_CONFIG_HOME"] = workspace.folder.path
      let writers = (0..<processes).map { index in
        let arguments = ["key-writer", file.path, "p\(index)", "\(keysPerProcess)"]
        guard
          let writer = SpawnedProgram(Worker.executable.path, arguments, environment: environment)
        else { abort("cannot start a writer") }
        return writer
      }
      for writer in writers where writer.wait() != 0 { abort("a writer failed") }
      let lost = lostKeys(in: file)
      if lost > 0 { abort("\(lost) of \(processes * keysPerProcess) keys were lost") }
    }
    table.add(
      ResultRow(
        measure: "\(processes) processes × \(keysPerProcess) keys into one suite, total",
        samples: samples,
        unit: .milliseconds, target: Target(text: "no key lost (checked every run)", isMet: true)))
  }

  /// How many of the keys the writers wrote are missing or wrong in the file.
  private func lostKeys(in file: URL) -> Int {
    let values = (try? PropertyListFile(url: file).read())?.values ?? [:]
    var lost = 0
    for writer in 0..<processes {
      for index in 0..<keysPerProcess where values["p\(writer)-\(index)"] as? Int != index {
        lost += 1
      }
    }
    return lost
  }

  /// Worker mode `key-writer <file> <prefix> <count>`: sets `<prefix>-0` … to 0 …, one write
  /// per key, and exits (the store's exit hook writes what is still pending).
  static func runWriter(file: String, prefix: String, count: Int) {
    let store = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
    for index in 0..<count { store.set(index, forKey: "\(prefix)-\(index)") }
  }
}
