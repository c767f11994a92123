import Foundation

/// Clean debug builds, timed by `Benchmarks/measure-build.sh`: the whole package, with tests,
/// and the macro plugin alone (its share of the package build).
struct BuildMeasure {
  let runs: Int

  /// `measure-build.sh` beside this file.
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "measure-build.sh")

  func run(into table: ResultTable) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [Self.script.path, "\(runs)"]
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { abort("cannot run \(Self.script.path): \(error)") }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { abort("measure-build.sh failed") }

    var times: [String: [Double]] = [:]
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if fields.count == 2, let seconds = Double(fields[1]) {
        times[String(fields[0]), default: []].append(seconds)
      }
    }
    guard let package = times["package"], let tests = times["tests"], let macros = times["macros"]
    else {
      abort("measure-build.sh printed '\(text)'")
    }
    let packageSamples = Samples(package)
    table.add(
      ResultRow(
        measure: "Clean debug build of the package (`swift build`)", samples: packageSamples,
        unit: .seconds,
        target: Target(text: "≤ 60 s on 2 cores", isMet: packageSamples.median <= 60)))
    table.add(
      ResultRow(
        measure: "…with tests (`swift build --build-tests`)", samples: Samples(tests),
        unit: .seconds))
    table.add(
      ResultRow(
        measure: "…macro plugin alone (`--target ObservableDefaultsMacros`)",
        samples: Samples(macros),
        unit: .seconds, baseline: ("package build", packageSamples)))
  }
}
