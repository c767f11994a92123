// core-probe: a program the core tests start as other processes sharing one suite file.
//
//   core-probe write-keys <file> <prefix> <count> <flush-every>
//       sets <prefix>-0 … <prefix>-<count-1> to 0 … count-1, flushing after every
//       <flush-every> writes (0: never; the exit hook writes them)
//   core-probe set <file> <key> <string>
//       sets one string value and exits without flushing
//   core-probe get <file> <key>
//       prints the string stored under exactly <key> (empty when none)
//   core-probe try-write <file> <key> <string>
//       checked write + flush; prints the error and exits 1 on failure
//   core-probe foundation-set <suite> <key> <string>
//       Foundation's UserDefaults(suiteName:): set + synchronize
//   core-probe foundation-get <suite> <key>
//       Foundation's UserDefaults(suiteName:): prints the string value (empty when none)
//   core-probe set-persistent-domain <suite> <key> <string>
//       PropertyListDefaults.standard.setPersistentDomain([key: string], forName: suite)
//   core-probe remove-persistent-domain <suite>
//       PropertyListDefaults.standard.removePersistentDomain(forName: suite)
//   core-probe suite-file <suite>
//       prints the file of PropertyListDefaults(suiteName:)
//   core-probe cloud-location [open-default]
//       prints the default embedded container file (from XDG_DATA_HOME or the home folder, the
//       program name and OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT) without creating anything; with
//       open-default, the file of NSUbiquitousKeyValueStore.default (which creates its folder)
//   core-probe cloud-set <root> <container> <key> <string>
//       cloud store: sets one string and exits without synchronize() (the exit hook saves it)
//   core-probe cloud-get <root> <container> <key>
//       cloud store: prints the string value (empty when none)
//   core-probe cloud-get-status <root> <container> <key>
//       cloud store: waits for its first load, prints the status summary, then the string value
//   core-probe cloud-watch <root> <container> <key> <seconds>
//       cloud store: prints "ready", waits for didChangeExternallyNotification naming <key>,
//       prints "reason <n> keys <k,…> value <string>" and exits 0; exits 1 after <seconds>
//   core-probe write-acked <file> <prefix>
//       sets <prefix>-0, <prefix>-1, … to 0, 1, …, flushing each and printing its index once it
//       is on disk, until killed (the kill -9 torture test)
//   core-probe large-value-rounds <file> <bytes> <rounds>
//       sets the string "large" to <bytes> bytes and flushes, <rounds> times; then prints how
//       many of the process's memory mappings are still advised for huge pages (VmFlags "hg")
//   core-probe reread-memory <file> <changes>
//       opens the suite <file>, then <changes> times writes the string "changed <n>" to the key
//       "key 1" the way a one-shot command does (nothing of the file kept) and synchronizes the
//       suite; prints the heap's bytes in use (glibc's mallinfo2: arenas and mappings) after the
//       open and after the last change, on two lines
//   core-probe rewrite-memory <file> <rewrite>
//       opens the suite <file>, renames <rewrite> (the whole file written again, "key 1" changed)
//       over it and synchronizes; prints the heap's bytes in use after the open, the resident
//       peak during the re-read less the resident memory before it, and the heap's bytes in use
//       after, on three lines
//   core-probe large-block-places [mapped]
//       mallocs a block of 5,000,000 bytes, frees it, and again; prints "mapping" or "heap" for
//       each (with mapped: after SystemMemory.mapLargeBlocks(), as the editor starts)
//   core-probe registry-churn <threads> <iterations>
//       <threads> threads each open and drop PropertyListDefaults(suiteName: "churn.<0…2>")
//       <iterations> times, then NSUbiquitousKeyValueStore on three in-memory backends as often;
//       prints "finished" (the registries' deadlock reproduction: it never returned)
//   core-probe layers <suite> <key,key,…> [-<key> <value>]…
//       PropertyListDefaults(suiteName:) (system files from XDG_CONFIG_DIRS) with the string
//       "registered" registered for each key: prints "<key>=<value> (<layer>)" per key ("<key>=
//       (none)" when no layer has it); the -<key> <value> pairs are the command line's layer
//   core-probe migrate <file> <log> <go>
//   core-probe migrate-blocking <file> <log>
//       the suite migrations of ProbeMigration.swift (see there)
import Foundation
import ObservableDefaultsCore

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("core-probe: \(message)\n".utf8))
  exit(2)
}

func fileDefaults(_ path: String) -> PropertyListDefaults {
  PropertyListDefaults(fileURL: URL(fileURLWithPath: path))
}

func foundationDefaults(_ suite: String) -> UserDefaults {
  guard let defaults = UserDefaults(suiteName: suite) else { fail("no suite \(suite)") }
  return defaults
}

/// The store of `cloud-set`, alive until the exit hook saves it.
nonisolated(unsafe) var keptStore: NSUbiquitousKeyValueStore?

func cloudStore(root: String, container: String) -> NSUbiquitousKeyValueStore {
  NSUbiquitousKeyValueStore(
    backend: EmbeddedCloudBackend(root: URL(fileURLWithPath: root), container: container))
}

let arguments = Array(CommandLine.arguments.dropFirst())

/// The arguments after the command when there are exactly `count` of them.
func operands(_ count: Int) -> [String] {
  guard arguments.count == count + 1 else { fail("\(arguments[0]) takes \(count) arguments") }
  return Array(arguments.dropFirst())
}

switch arguments.first ?? "" {
case "write-keys":
  let given = operands(4)
  let (path, prefix, countText, flushEveryText) = (given[0], given[1], given[2], given[3])
  guard let count = Int(countText), let flushEvery = Int(flushEveryText) else {
    fail("bad write-keys numbers")
  }
  let defaults = fileDefaults(path)
  for index in 0..<count {
    defaults.set(index, forKey: "\(prefix)-\(index)")
    if flushEvery > 0, (index + 1) % flushEvery == 0 {
      do { try defaults.flush() } catch { fail("\(error)") }
    }
  }
case "set":
  let given = operands(3)
  let (path, key, value) = (given[0], given[1], given[2])
  fileDefaults(path).set(value, forKey: key)
case "get":
  let given = operands(2)
  print(fileDefaults(given[0]).string(forKey: given[1]) ?? "")
case "try-write":
  let given = operands(3)
  let (path, key, value) = (given[0], given[1], given[2])
  let defaults = fileDefaults(path)
  do {
    try defaults.write(value, forKey: key)
    try defaults.flush()
  } catch {
    print(error)
    exit(1)
  }
case "foundation-set":
  let given = operands(3)
  let (suite, key, value) = (given[0], given[1], given[2])
  let defaults = foundationDefaults(suite)
  defaults.set(value, forKey: key)
  guard defaults.synchronize() else { fail("synchronize failed") }
case "foundation-get":
  let given = operands(2)
  let (suite, key) = (given[0], given[1])
  print(foundationDefaults(suite).string(forKey: key) ?? "")
case "set-persistent-domain":
  let given = operands(3)
  PropertyListDefaults.standard.setPersistentDomain([given[1]: given[2]], forName: given[0])
case "remove-persistent-domain":
  PropertyListDefaults.standard.removePersistentDomain(forName: operands(1)[0])
case "suite-file":
  guard let defaults = PropertyListDefaults(suiteName: operands(1)[0]) else {
    fail("bad suite name")
  }
  print(defaults.fileURL.path)
case "layers":
  guard arguments.count >= 3, let defaults = PropertyListDefaults(suiteName: arguments[1]) else {
    fail("layers takes a suite and keys")
  }
  let keys = arguments[2].split(separator: ",").map(String.init)
  defaults.register(defaults: Dictionary(uniqueKeysWithValues: keys.map { ($0, "registered") }))
  for key in keys {
    let layer = defaults.layer(forKey: key).map { " (\($0))" } ?? ""
    print("\(key)=\(defaults.string(forKey: key) ?? "(none)")\(layer)")
  }
case "cloud-location":
  guard arguments.count == 2, arguments[1] == "open-default" else {
    _ = operands(0)
    print(EmbeddedCloudBackend().fileURL.path)
    break
  }
  guard let backend = NSUbiquitousKeyValueStore.default.backend as? EmbeddedCloudBackend else {
    fail("the default store is not embedded")
  }
  print(backend.fileURL.path)
case "cloud-set":
  let given = operands(4)
  keptStore = cloudStore(root: given[0], container: given[1])
  keptStore?.set(given[3], forKey: given[2])
case "cloud-get":
  let given = operands(3)
  print(cloudStore(root: given[0], container: given[1]).string(forKey: given[2]) ?? "")
case "cloud-get-status":
  let given = operands(3)
  let store = cloudStore(root: given[0], container: given[1])
  store.waitForFirstLoad()
  print(store.syncStatus.summary)
  print(store.string(forKey: given[2]) ?? "")
case "cloud-watch":
  let given = operands(4)
  guard let seconds = Double(given[3]) else { fail("bad cloud-watch seconds") }
  let store = cloudStore(root: given[0], container: given[1])
  let key = given[2]
  let arrived = DispatchSemaphore(value: 0)
  let token = NotificationCenter.default.addObserver(
    forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil
  ) { note in
    let keys = note.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
    guard keys.contains(key) else { return }
    let reason = note.userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? Int ?? -1
    let line =
      "reason \(reason) keys \(keys.joined(separator: ",")) value \(store.string(forKey: key) ?? "")\n"
    FileHandle.standardOutput.write(Data(line.utf8))
    arrived.signal()
  }
  FileHandle.standardOutput.write(Data("ready\n".utf8))
  let result = arrived.wait(timeout: .now() + seconds)
  NotificationCenter.default.removeObserver(token)
  exit(result == .success ? 0 : 1)
case "write-acked":
  let given = operands(2)
  let defaults = fileDefaults(given[0])
  for index in 0... {
    defaults.set(index, forKey: "\(given[1])-\(index)")
    do { try defaults.flush() } catch { fail("\(error)") }
    FileHandle.standardOutput.write(Data("\(index)\n".utf8))
  }
case "large-value-rounds":
  let given = operands(3)
  guard let bytes = Int(given[1]), let rounds = Int(given[2]) else {
    fail("bad large-value-rounds numbers")
  }
  let defaults = fileDefaults(given[0])
  let filler = String(repeating: "x", count: bytes - 8)
  for round in 0..<rounds {
    defaults.set(String(format: "%08d", round) + filler, forKey: "large")
    do { try defaults.flush() } catch { fail("\(error)") }
  }
  let maps = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() ?? Data()
  let flags = String(decoding: maps, as: UTF8.self).split(separator: "\n")
    .filter { $0.hasPrefix("VmFlags:") }
  print(flags.filter { $0.split(separator: " ").contains("hg") }.count)
case "reread-memory":
  let given = operands(2)
  guard let changes = Int(given[1]) else { fail("bad reread-memory count") }
  let defaults = fileDefaults(given[0])
  let writer = PropertyListFile(url: URL(fileURLWithPath: given[0]))
  print(heapBytesInUse())
  for change in 0..<changes {
    do { try writer.write(["key 1": .set("changed \(change)")]) } catch { fail("\(error)") }
    guard defaults.synchronize(), defaults.string(forKey: "key 1") == "changed \(change)" else {
      fail("change \(change) not read")
    }
  }
  print(heapBytesInUse())
case "rewrite-memory":
  let given = operands(2)
  rewriteMemory(file: given[0], rewrite: given[1])
case "large-block-places":
  largeBlockPlaces(mapped: arguments.dropFirst().first == "mapped")
case "registry-churn":
  let given = operands(2)
  guard let threads = Int(given[0]), let iterations = Int(given[1]) else {
    fail("bad registry-churn numbers")
  }
  let backends = (0..<3).map { _ in InMemoryCloudBackend() }
  DispatchQueue.concurrentPerform(iterations: threads) { thread in
    for index in 0..<iterations {
      let defaults = PropertyListDefaults(suiteName: "churn.\((thread + index) % 3)")!
      _ = defaults.object(forKey: "k")
    }
    for index in 0..<iterations {
      _ = NSUbiquitousKeyValueStore(backend: backends[(thread + index) % 3]).object(forKey: "k")
    }
  }
  print("finished")
case "migrate":
  runMigrationCommand("migrate", operands(3))
case "migrate-blocking":
  runMigrationCommand("migrate-blocking", operands(2))
default:
  fail("bad arguments; see Tests/CoreProbe/main.swift")
}
