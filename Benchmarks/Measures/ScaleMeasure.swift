import Foundation
import ObservableDefaults

/// How the costs grow with the suite: 1,000, 10,000 and 100,000 keys (string values of 20
/// characters). Each size: open, set + flush, one-key change latency between two processes, the
/// reader's memory over the changes, and writing every key from one program; dconf's rows for
/// the same sizes are measured in the same run (``DconfBaseline``).
struct ScaleMeasure {
  let workspace: Workspace
  let runs: Int
  static let sizes = [1_000, 10_000, 100_000]

  /// Changes measured per size: enough for a p99 at small sizes; 100 at 100,000 keys for the
  /// reader's memory.
  static func changes(keys: Int) -> Int { keys >= 100_000 ? 100 : 200 }

  func run(into table: ResultTable) {
    DconfBaseline.installIfMissing()
    guard FileManager.default.isExecutableFile(atPath: DconfBaseline.editor.path) else {
      abort(
        "the scale rows run settings-editor: `swift build -c release` builds it beside benchmarks")
    }
    for keys in Self.sizes {
      let label = "\(keys.formatted()) keys"
      let dconf = DconfBaseline(workspace: workspace).run(
        keys: keys, changes: keys >= 100_000 ? 20 : 50)
      let dconfFailed = "dconf failed (D-Bus timeout loading \(label))"

      let (open, set) = openAndSet(keys: keys)
      table.add(
        ResultRow(
          measure: "\(label): open (read + parse, in process)", samples: open, unit: .milliseconds,
          baseline: dconf.open.map { ("`dconf dump` (new process)", $0) },
          note: dconf.open == nil ? dconfFailed : nil))
      table.add(
        ResultRow(
          measure: "\(label): set one key + flush", samples: set, unit: .milliseconds,
          baseline: dconf.set.map { ("`dconf write` (new process)", $0) },
          note: dconf.set == nil ? dconfFailed : nil))

      if keys == 1_000 { addCommandLineRows(dconf, label: label, to: table) }

      let foundation = foundationCodecs(keys: keys)
      table.add(
        ResultRow(
          measure:
            "\(label): Foundation's `PropertyListSerialization` parse of the same file (the reader before)",
          samples: foundation.parse, unit: .milliseconds,
          baseline: ("our open (read + parse)", open)))
      table.add(
        ResultRow(
          measure:
            "\(label): Foundation's `PropertyListEncoder` of the same values (the writer before)",
          samples: foundation.encode, unit: .milliseconds,
          baseline: ("our set one key + flush", set)))

      let change = ExternalChangeMeasure(workspace: workspace).run(
        keys: keys, changes: Self.changes(keys: keys))
      let p99 = change.latencies.percentile(99)
      let p99Target = keys >= 100_000 ? nil : keys >= 10_000 ? 0.020 : 0.005
      table.add(
        ResultRow(
          measure: "\(label): one-key change, writer's set → reader's tracker, p50",
          samples: change.latencies,
          unit: .milliseconds,
          baseline: dconf.change.map { ("`dconf write` → `dconf watch`, p50", $0) },
          target: keys >= 100_000
            ? Target(text: "p50 ≤ 300 ms", isMet: change.latencies.median <= 0.3) : nil,
          note: dconf.change == nil ? dconfFailed : nil))
      table.add(
        ResultRow(
          measure: "\(label): …p99 (of \(Self.changes(keys: keys)))", samples: change.latencies,
          unit: .milliseconds,
          value: p99,
          baseline: dconf.change.map {
            ("`dconf write` → `dconf watch`, p99", Samples([$0.percentile(99)]))
          },
          target: p99Target.map { Target(text: "p99 ≤ \(Int($0 * 1000)) ms", isMet: p99 <= $0) }))
      if keys >= 100_000 {
        table.add(
          ResultRow(
            measure: "\(label): reader's resident memory over \(Self.changes(keys: keys)) changes "
              + "(\(Unit.megabytes.format(Double(change.residentBefore))) before)",
            samples: Samples([Double(change.residentAfter)]), unit: .megabytes,
            target: Target(
              text: "≤ +10 % (\(String(format: "%+.1f %%", change.residentGrowth)))",
              isMet: change.residentGrowth <= 10)))
      }
      let writeAll = writeAllKeys(keys)
      table.add(
        ResultRow(
          measure: "\(label): written by one program (set each + flush)", samples: writeAll,
          unit: .milliseconds,
          baseline: dconf.load.map { ("`dconf load`", Samples([$0])) },
          target: keys == 10_000 && dconf.load != nil
            ? Target(text: "≤ 0.5× dconf", isMet: writeAll.median <= 0.5 * (dconf.load ?? 0)) : nil,
          note: dconf.load == nil ? dconfFailed : nil))
    }
  }

  /// `settings-editor read` and `write` of one key against `dconf read` and `write` (new
  /// processes, 20 each, same run).
  private func addCommandLineRows(
    _ dconf: DconfBaseline.Result, label: String, to table: ResultTable
  ) {
    let steps = [("read", dconf.read), ("write", dconf.write)]
    for (verb, samples) in steps {
      guard let samples else { abort("dconf-worker: no `\(verb)` times in its report") }
      let ratio = samples.ours.median / samples.dconf.median
      table.add(
        ResultRow(
          measure: "\(label): `settings-editor \(verb)` of one key (new process)",
          samples: samples.ours, unit: .milliseconds,
          baseline: ("`dconf \(verb)` (new process)", samples.dconf),
          target: Target(text: "≤ 1.0× dconf", isMet: ratio <= 1.0)))
    }
  }

  /// Opening a fresh copy of a `keys`-key suite (5 runs), and setting one key + flush in it.
  func openAndSet(keys: Int, format: PropertyListSerialization.PropertyListFormat = .binary)
    -> (open: Samples, set: Samples)
  {
    let original = workspace.newFile("scale-\(keys)-\(format.rawValue)")
    EditorMeasure.writeSuite(at: original, keys: keys, valueLength: 20, format: format)
    var suites: [PropertyListDefaults] = []
    let open = timeRuns(runs: 5) { run in
      let copy = workspace.newFile("scale-\(keys)-\(format.rawValue)-\(run)")
      do { try FileManager.default.copyItem(at: original, to: copy) } catch {
        abort("copy: \(error)")
      }
      let suite = PropertyListDefaults(fileURL: copy)
      blackHole(suite.persistentValue(forKey: EditorMeasure.key(1)))
      suites.append(suite)
    }
    guard let suite = suites.last else { abort("no suite opened") }
    let set = timeRuns(runs: max(runs, 20)) { run in
      suite.set("set-\(run)", forKey: EditorMeasure.key(2))
      do { try suite.flush() } catch { abort("flush: \(error)") }
    }
    return (open, set)
  }

  /// Foundation's codecs on the same suite (5 runs each): parsing its bytes, and encoding its
  /// values as a binary property list — what opening and flushing cost before our own codec.
  private func foundationCodecs(keys: Int) -> (parse: Samples, encode: Samples) {
    let file = workspace.newFile("foundation-\(keys)")
    EditorMeasure.writeSuite(at: file, keys: keys, valueLength: 20)
    guard let data = FileManager.default.contents(atPath: file.path),
      let values = try? PropertyListSerialization.propertyList(from: data, format: nil)
        as? [String: String]
    else { abort("cannot read \(file.path) with Foundation") }
    let parse = timeRuns(runs: 5) { _ in
      blackHole(try? PropertyListSerialization.propertyList(from: data, format: nil))
    }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    let encode = timeRuns(runs: 5) { _ in blackHole(try? encoder.encode(values)) }
    return (parse, encode)
  }

  /// Writing `keys` keys one by one into a new suite, then the flush (5 runs).
  private func writeAllKeys(_ keys: Int) -> Samples {
    let values = (0..<keys).map { "value \($0) xxxxxxxxxx" }
    let names = (0..<keys).map(EditorMeasure.key)
    return timeRuns(runs: 5) { _ in
      let suite = PropertyListDefaults(fileURL: workspace.newFile("write-all-\(keys)"))
      for index in 0..<keys { suite.set(values[index], forKey: names[index]) }
      do { try suite.flush() } catch { abort("flush: \(error)") }
    }
  }
}
