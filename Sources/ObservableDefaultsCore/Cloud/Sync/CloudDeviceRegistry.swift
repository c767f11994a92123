import Foundation

/// The live ``CloudDevice`` objects, one per backend object, so every
/// ``NSUbiquitousKeyValueStore`` on one backend in this process shares one device copy.
///
/// Like the suites' registry, the first device installs an `atexit` hook that saves every
/// device's pending writes, so a value set just before a normal exit reaches the container; a
/// device whose writes could not be sent says so on ``Diagnostics`` (one line: how many, and
/// whether its journal keeps them for the next launch).
final class CloudDeviceRegistry: Sendable {
  static let shared = CloudDeviceRegistry()

  /// Backend identity → device (a device keeps its backend alive, so the identity is not reused
  /// while the entry lives).
  private let devices = WeakRegistry<ObjectIdentifier, CloudDevice>()

  /// The device of `backend`, created (loading the backend) on first use.
  func device(for backend: any CloudBackend) -> CloudDevice {
    let (device, _, isFirst) = devices.object(for: ObjectIdentifier(backend)) {
      CloudDevice(backend: backend)
    }
    if isFirst { atexit { CloudDeviceRegistry.shared.flushAll() } }
    return device
  }

  /// Forgets `device` (from its `deinit`).
  func remove(_ device: CloudDevice) {
    devices.remove(ObjectIdentifier(device.backend), ifStillHolding: ObjectIdentifier(device))
  }

  /// Saves every live device's pending writes and waits, and reports the writes left unsent
  /// (the `atexit` hook; see ``CloudDevice/saveForExit(atExit:)``).
  private func flushAll() {
    for device in devices.liveObjects() {
      device.onQueue { device.saveForExit(atExit: true) }
    }
  }
}
