import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// Issue 20: the environment's proxy variables never redirect etcd traffic; only the
/// configuration's `proxy` does. Each device is a `defaults-probe` run (libcurl reads the variables
/// from its own process's environment, which tests must not change) against two fake servers:
/// a member and a would-be proxy, both answering every request with an empty range and every
/// watch with a watch that waits for events, as a member of an empty account does: then every
/// exchange of the device succeeds, and it is `synced` whatever the timing (a watch answered with
/// a range failed and was made again every few milliseconds, and a failure noted while the
/// device's load ran made the load prove nothing: `etcd connected` under load).
@Suite struct EtcdProxyTests {
  /// A range reply with no keys, as a member sends for an empty account.
  private static let emptyRange =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 37\r\n\r\n"
    + #"{"header":{"revision":"7"},"count":0}"#
  /// A watch's first line, as a member sends it once the watch is created; no event follows.
  private static let createdWatch =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    + "36\r\n" + #"{"result":{"header":{"revision":"7"},"created":true}}"# + "\n\r\n"

  /// Runs one `default-cloud-get` device with `environment` and returns its output and the
  /// requests each server received.
  private func sync(_ environment: (_ member: String, _ proxy: String) -> [String: String])
    async throws -> (output: String, member: Int, proxy: Int)
  {
    let member = try FakeHTTPServer(reply: Self.emptyRange, watchStream: Self.createdWatch)
    let proxy = try FakeHTTPServer(reply: Self.emptyRange, watchStream: Self.createdWatch)
    defer {
      member.stop()
      proxy.stop()
    }
    return try await withTemporaryFolder { folder in
      let base = [
        EtcdConfiguration.endpointsVariable: member.endpoint,
        "OBSERVABLE_DEFAULTS_ETCD_STATE_DIRECTORY": folder.file("state").path,
        "XDG_CONFIG_HOME": folder.file("config").path, "no_proxy": "", "NO_PROXY": "",
      ]
      let result = try DefaultsProbe.run(
        ["default-cloud-get", "k"],
        environment: base.merging(environment(member.endpoint, proxy.endpoint)) { $1 })
      return (result.output, member.requestCount, proxy.requestCount)
    }
  }

  @Test func proxyVariablesOfTheEnvironmentAreIgnored() async throws {
    let result = try await sync { _, proxy in
      [
        "http_proxy": proxy, "HTTPS_PROXY": proxy, "https_proxy": proxy, "ALL_PROXY": proxy,
        "all_proxy": proxy,
      ]
    }
    #expect(result.output == "etcd synced\n\n")
    #expect(result.proxy == 0)
    #expect(result.member > 0)
  }

  @Test func theConfiguredProxyCarriesEveryRequest() async throws {
    let result = try await sync { _, proxy in ["OBSERVABLE_DEFAULTS_ETCD_PROXY": proxy] }
    #expect(result.output == "etcd synced\n\n")
    #expect(result.member == 0)
    #expect(result.proxy > 0)
  }

  @Test func theConfiguredProxyIsReadFromTheEnvironmentAndTheFile() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("config/ObservableDefaults/cloud.conf")
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try "endpoints = http://127.0.0.1:2379\nproxy = http://10.0.0.9:3128\n".write(
        to: file, atomically: true, encoding: .utf8)
      let environment = ["XDG_CONFIG_HOME": folder.file("config").path]
      let fromFile = try EtcdConfiguration.fromEnvironment(environment: environment)
      #expect(fromFile?.proxy == "http://10.0.0.9:3128")
      let fromVariable = try EtcdConfiguration.fromEnvironment(
        environment: environment.merging(["OBSERVABLE_DEFAULTS_ETCD_PROXY": "socks5h://h:1080"]) {
          $1
        })
      #expect(fromVariable?.proxy == "socks5h://h:1080")
      let without = try EtcdConfiguration.fromEnvironment(environment: [
        "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": "http://127.0.0.1:2379",
        "XDG_CONFIG_HOME": folder.file("none").path,
      ])
      #expect(without?.proxy == nil)
    }
  }
}
