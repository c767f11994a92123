import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// The etcd rows of the sync fault matrix: each test injects one fault into a cluster of its
/// own, records what the writing device says during it, `settings-editor cloud status`'s exit
/// status then, what the device says once the fault healed, and whether every acknowledged
/// write reached the other device and a new one without the program writing again — and checks
/// that row against the DocC guide's table (``SyncFaultMatrix``).
@Suite(.serialized) struct EtcdFaultMatrixTests {
  /// Writes `count` keys during a fault made by `inject` and healed by `heal`, and checks the
  /// row of `fault`.
  func runFault(
    _ fault: String, writes count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation,
    bench makeBench: () async throws -> EtcdFaultBench = { try await EtcdFaultBench.started() },
    inject: (EtcdFaultBench) throws -> Void, heal: (EtcdFaultBench) throws -> Void
  ) async throws {
    let bench = try await makeBench()
    bench.write("v0", forKey: "before")
    bench.writer.synchronize()
    // The long mode's random timings (``SyncFaultSoak``); none in the short mode.
    await SyncFaultSoak.hold()
    try inject(bench)
    for index in 1...count {
      await SyncFaultSoak.hold(upTo: .milliseconds(500))
      bench.write("v\(index)", forKey: "k\(index)")
    }
    let during = await bench.settledSummary()
    let exit = try bench.cloudStatusExit()
    await SyncFaultSoak.hold(upTo: .seconds(5))
    try heal(bench)
    let arrive = try await bench.everyWriteArrives()
    let after = await bench.settledSummary()
    SyncFaultMatrix.expectDocumented(
      bench.row(fault, during: during, statusExit: exit, after: after, arrive: arrive),
      sourceLocation: sourceLocation)
  }

  @Test func aMemberKilled() async throws {
    try await runFault(
      "a member killed", writes: 3,
      inject: { $0.cluster.kill9($0.cluster.members[0]) },
      heal: { try $0.cluster.start($0.cluster.members[0]) })
  }

  @Test func theWholeClusterKilled() async throws {
    try await runFault(
      "the whole cluster killed",
      inject: { bench in for member in bench.cluster.members { bench.cluster.kill9(member) } },
      heal: { bench in for member in bench.cluster.members { try bench.cluster.start(member) } })
  }

  @Test func theWholeClusterFrozen() async throws {
    try await runFault(
      "every member frozen (SIGSTOP)",
      inject: { bench in for member in bench.cluster.members { member.pause() } },
      heal: { bench in for member in bench.cluster.members { member.pause(false) } })
  }

  @Test func quorumLostAndRegained() async throws {
    try await runFault(
      "quorum lost (2 of 3 members killed) and regained",
      inject: { bench in
        bench.cluster.kill9(bench.cluster.members[1])
        bench.cluster.kill9(bench.cluster.members[2])
      },
      heal: { bench in
        try bench.cluster.start(bench.cluster.members[1])
        try bench.cluster.start(bench.cluster.members[2])
      })
  }

  /// The devices cut off from the cluster by the network: its members run in a network
  /// namespace whose link goes down (packets are lost, nothing is refused), then up again.
  @Test(.enabled(if: NetworkNamespace.isAvailable, "network namespaces need root"))
  func theDevicePartitionedFromTheCluster() async throws {
    let namespace = try NetworkNamespace()
    defer { namespace.remove() }
    try await runFault(
      "the device partitioned from its cluster (network namespace)",
      bench: { try await EtcdFaultBench.started(namespace: namespace) },
      inject: { _ in try namespace.partition(true) },
      heal: { _ in try namespace.partition(false) })
  }

  /// An operator deletes every key of the account (`etcdctl del --prefix`), and another
  /// client writes under the prefix again.
  @Test func theKeyPrefixDeletedAndMadeAgain() async throws {
    try await runFault(
      "the key prefix deleted and made again",
      inject: { bench in
        let deleted = try ChildProcess.runCommand(
          "etcdctl",
          [
            "--endpoints", bench.cluster.endpoints.joined(separator: ","), "del", "--prefix",
            bench.layout.prefix,
          ])
        #expect(deleted.status == 0, "\(deleted.error)")
        let other = try EtcdCloudBackend(configuration: bench.configuration(device: "other"))
        try other.save([
          "other": CloudRecord(
            value: "o", timestamp: CloudTimestamp(time: 1, counter: 0, device: "other"))
        ])
      },
      heal: { _ in })
  }

  /// Another client of the account plants a record bigger than the container's whole quota
  /// (1 MB); the device's later writes of other keys must still be sent.
  @Test func anOverQuotaRecordPlantedByAnotherClient() async throws {
    try await runFault(
      "an over-quota record planted by another client",
      inject: { bench in
        let planted = try CloudRecordCodec.encode(
          CloudRecord(
            value: Data(count: 1_100_000),
            timestamp: CloudTimestamp(time: 1, counter: 0, device: "planter")))
        _ = try bench.cluster.client().txn(
          EtcdTxnRequest(success: [
            .put(EtcdPutRequest(key: bench.layout.key("planted"), value: planted))
          ]
          ))
      },
      heal: { _ in })
  }

  /// A program (`defaults-probe`, the shared store on the configured etcd) writes while no
  /// member runs and exits: it says on standard error that the write is kept in its journal for
  /// the next launch. Launched again while still offline it keeps it; launched once the cluster
  /// is back, it sends it without writing again.
  @Test func aProgramExitingWithWritesUnsentThenRestartedWhileOffline() async throws {
    let bench = try await EtcdFaultBench.started(size: 1, container: "defaults-probe")
    let program = bench.environment(device: "program")
    func probe(_ arguments: [String]) throws -> ChildProcess.Result {
      try DefaultsProbe.run(arguments, environment: program)
    }
    #expect(try probe(["default-cloud-set", "before", "1"]).output == "etcd synced\n")
    bench.cluster.kill9(bench.cluster.members[0])
    let exiting = try probe(["default-cloud-set", "offline", "2"])
    let journal = bench.folder.file("program").appendingPathComponent("defaults-probe/a.plist")
    #expect(
      exiting.error
        == "NSUbiquitousKeyValueStore: exiting with 1 cloud write not sent to etcd (offline): "
        + "kept in the journal \(journal.path) for the next launch\n")
    let exit = try bench.cloudStatusExit(device: "program")
    let restarted = try probe(["default-cloud-get", "offline"])
    #expect(restarted.output.hasSuffix("\n2\n"))
    try bench.cluster.start(bench.cluster.members[0])
    try await bench.cluster.waitUntilHealthy()
    let back = try probe(["default-cloud-get", "offline"])
    #expect(back.error == "")
    let readerHasIt = await poll(within: .seconds(20)) {
      bench.reader.string(forKey: "offline") == "2"
    }
    let fresh = try EtcdCloudBackend(configuration: bench.configuration(device: "fresh"))
    let arrive = try readerHasIt && fresh.load().records["offline"]?.value as? String == "2"
    let summary = { (result: ChildProcess.Result) in
      String(result.output.split(separator: "\n").first?.dropFirst("etcd ".count) ?? "")
    }
    for (fault, during) in [
      ("the program exiting with writes unsent", exiting),
      ("restart while offline with pending writes", restarted),
    ] {
      SyncFaultMatrix.expectDocumented(
        bench.row(
          fault, during: summary(during), statusExit: exit, after: summary(back), arrive: arrive))
    }
  }

  /// Launching while no member answers (a frozen member accepts connections and answers
  /// nothing, so the first load waits for the request timeout, 3 s) does not block the first
  /// read: it answers from the journal at once.
  @Test func launchingWhileNoMemberAnswersDoesNotBlockTheFirstRead() async throws {
    let bench = try await EtcdFaultBench.started(size: 1, container: "defaults-probe")
    let program = bench.environment(device: "program")
    #expect(
      try DefaultsProbe.run(["default-cloud-set", "k", "journaled"], environment: program).output
        == "etcd synced\n")
    bench.cluster.members[0].pause()
    defer { bench.cluster.members[0].pause(false) }
    let peek = try DefaultsProbe.run(["default-cloud-peek", "k"], environment: program)
    let lines = peek.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "journaled")
    let milliseconds = try #require(lines.last.flatMap { Int64($0) })
    #expect(milliseconds < 1000, "the first read took \(milliseconds) ms")
  }

  /// Runs `script` with `/bin/sh`; throws its output when it fails.
  static func shell(_ script: String) throws {
    let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
    guard result.status == 0 else {
      throw EtcdTestCluster.ClusterError(description: "`\(script)` failed: \(result.error)")
    }
  }

  /// A bench whose cluster has authentication on: `root`, and a role `account` that may read
  /// and write the account's prefix, held by `alice` (the reader) and by `writer` when
  /// `writerExists`.
  static func authenticatedBench(writerExists: Bool) async throws -> EtcdFaultBench {
    try await EtcdFaultBench.started(
      size: 1,
      users: (
        EtcdCredentials(user: "writer", password: "writer-secret"),
        EtcdCredentials(user: "alice", password: "alice-secret")
      )
    ) { etcdctl, prefix in
      var script = "\(etcdctl) user add root --new-user-password=root-secret"
      script += " && \(etcdctl) user grant-role root root && \(etcdctl) role add account"
      script += " && \(etcdctl) role grant-permission account --prefix=true readwrite \(prefix)"
      script += " && \(etcdctl) user add alice --new-user-password=alice-secret"
      script += " && \(etcdctl) user grant-role alice account"
      if writerExists { script += " && " + addWriter(etcdctl) }
      try shell(script + " && \(etcdctl) auth enable")
    }
  }

  /// The commands that make the user `writer` with the role `account`.
  static func addWriter(_ etcdctl: String) -> String {
    "\(etcdctl) user add writer --new-user-password=writer-secret"
      + " && \(etcdctl) user grant-role writer account"
  }

  /// The `etcdctl` command of `bench`'s cluster, as `root` (waiting as long as
  /// ``EtcdTestCluster/etcdctl(_:)`` does: `etcdctl` authenticates `root`, a bcrypt check in
  /// etcd, before its command, and with the machine loaded that took longer than its default 5 s
  /// in 6 of 30 runs of the long mode, failing the fault's injection).
  static func rootEtcdctl(_ bench: EtcdFaultBench) -> String {
    EtcdTestCluster.etcdctl([bench.cluster.endpoints[0]]) + " --user=root:root-secret"
  }

  /// The writer's user does not exist when it starts: its first load is refused; the user is
  /// made, and the device sends what it kept without writing again.
  @Test func credentialsRefusedAtLaunch() async throws {
    try await runFault(
      "credentials refused at launch, then accepted",
      bench: { try await Self.authenticatedBench(writerExists: false) },
      inject: { _ in }, heal: { bench in try Self.shell(Self.addWriter(Self.rootEtcdctl(bench))) })
  }

  /// The writer's role is revoked while it runs, then granted again.
  @Test func credentialsRefusedLater() async throws {
    try await runFault(
      "a permission revoked while running, then granted again",
      bench: { try await Self.authenticatedBench(writerExists: true) },
      inject: { bench in
        try Self.shell("\(Self.rootEtcdctl(bench)) user revoke-role writer account")
      },
      heal: { bench in
        try Self.shell("\(Self.rootEtcdctl(bench)) user grant-role writer account")
      })
  }
}
