// benchmarks: the performance measures of Benchmarks/README.md.
//
//   benchmarks [--runs N]
//              [--only read|start|burst|cloud-write|xml|scale|one-shot|watch|editor|
//                      editor-latency|editor-scale|editor-search|schemas|open|million|
//                      large-value|memory|flat-memory|writers|cloud|cloud-scale[,…]]
//              [--devices N,N,…] [--build]
//       runs each measure N times (default 7) and prints the results as a Markdown table;
//       --devices gives the device counts of cloud-scale (default 10,100,500,1000);
//       --build also runs Benchmarks/measure-build.sh 3 times (clean debug builds, ~6 minutes);
//       --help prints the options (BenchmarkOptions.usage).
//
// Worker modes, started by the measures as other processes:
//   benchmarks change-writer <file> [bytes]         see ExternalChangeMeasure.runWriter
//   benchmarks key-writer <file> <prefix> <count>   see ConcurrentWritersMeasure.runWriter
//   benchmarks editor <suite> <report-file>         see EditorMeasure.runEditorWorker
//   benchmarks editor-file <path> <report-file>     see EditorMeasure.runFileEditorWorker
//   benchmarks open <suite> <report-file>           see EditorMeasure.runOpenWorker
//   benchmarks editor-all <schemas|suites> <report-file>   see SchemaListMeasure.runWorker
//   benchmarks dconf-worker <keys> <changes> <report-file>   see DconfBaseline.runWorker
//   benchmarks alone <memory|flat-memory> <report-file>      see ProcessOfItsOwn.runWorker
// and one for profiles (not started by a measure):
//   benchmarks burst-writer <file> <writes>         see WriteBurstMeasure.runWriter
//   benchmarks cloud-writer <folder> <writes>       see CloudWriteMeasure.runWriter
import Foundation
import ObservableDefaults

// The benchmark's own settings classes publish no schema into the user's folder.
SettingsSchemaPublisher.isEnabled = false
let arguments = Array(CommandLine.arguments.dropFirst())

switch arguments.first {
case "change-writer" where (2...3).contains(arguments.count):
  ExternalChangeMeasure.runWriter(
    file: arguments[1], valueBytes: arguments.dropFirst(2).first.flatMap { Int($0) })
case "key-writer" where arguments.count == 4:
  guard let count = Int(arguments[3]) else { abort("key-writer: bad count") }
  ConcurrentWritersMeasure.runWriter(file: arguments[1], prefix: arguments[2], count: count)
case "editor" where arguments.count == 3:
  EditorMeasure.runEditorWorker(suite: arguments[1], report: arguments[2])
case "editor-file" where arguments.count == 3:
  EditorMeasure.runFileEditorWorker(path: arguments[1], report: arguments[2])
case "editor-all" where arguments.count == 3:
  SchemaListMeasure.runWorker(mode: arguments[1], report: arguments[2])
case "open" where arguments.count == 3:
  EditorMeasure.runOpenWorker(suite: arguments[1], report: arguments[2])
case "burst-writer" where arguments.count == 3:
  guard let writes = Int(arguments[2]), writes > 0 else { abort("burst-writer: bad count") }
  WriteBurstMeasure.runWriter(file: arguments[1], writes: writes)
case "cloud-writer" where arguments.count == 3:
  guard let writes = Int(arguments[2]), writes > 0 else { abort("cloud-writer: bad count") }
  CloudWriteMeasure.runWriter(folder: arguments[1], writes: writes)
case "dconf-worker" where arguments.count == 4:
  guard let keys = Int(arguments[1]), let changes = Int(arguments[2]) else {
    abort("dconf-worker: bad counts")
  }
  DconfBaseline.runWorker(keys: keys, changes: changes, report: arguments[3])
case "alone" where arguments.count == 3:
  ProcessOfItsOwn.runWorker(arguments[1], report: arguments[2])
default:
  let options = BenchmarkOptions(arguments)
  // Foundation's baselines write under HOME / XDG_CONFIG_HOME: the run gets its own.
  guard ProcessInfo.processInfo.environment[Workspace.variable] != nil else {
    exit(Workspace.runInFreshHome())
  }
  BenchmarkRun(options: options).run()
}
