import Foundation

// Apple's names and values (Foundation's `NSUbiquitousKeyValueStore.h`), so that code written for
// Apple's store compiles here unchanged. Documentation quoted from
// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/didchangeexternallynotification
// and the pages of each constant. Their names are Apple's, hence not lower camel case.

/// The `userInfo` key of ``NSUbiquitousKeyValueStore/didChangeExternallyNotification`` whose
/// value, an `NSNumber`, tells why the store changed: ``NSUbiquitousKeyValueStoreServerChange``,
/// ``NSUbiquitousKeyValueStoreInitialSyncChange``, ``NSUbiquitousKeyValueStoreQuotaViolationChange``
/// or ``NSUbiquitousKeyValueStoreAccountChange``.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let NSUbiquitousKeyValueStoreChangeReasonKey = "NSUbiquitousKeyValueStoreChangeReasonKey"

/// The `userInfo` key of ``NSUbiquitousKeyValueStore/didChangeExternallyNotification`` whose
/// value, a `[String]`, names the keys that changed.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let NSUbiquitousKeyValueStoreChangedKeysKey = "NSUbiquitousKeyValueStoreChangedKeysKey"

/// A value changed in the container: another device (here: another process or store backend
/// instance) changed it. Apple's value (Foundation's `NSUbiquitousKeyValueStore.h`): 0.
// swift-format-ignore: AlwaysUseLowerCamelCase
public var NSUbiquitousKeyValueStoreServerChange: Int { 0 }

/// The first successful download of the container's keys and values. Apple's documentation of
/// this constant: writes made while it is in progress should wait for it. Here: posted when a
/// device that could not read its container at start reads it for the first time. Apple's value
/// (Foundation's `NSUbiquitousKeyValueStore.h`): 1.
// swift-format-ignore: AlwaysUseLowerCamelCase
public var NSUbiquitousKeyValueStoreInitialSyncChange: Int { 1 }

/// A write was refused because it would exceed a limit (see ``CloudQuota``); nothing changed.
/// Apple's value (Foundation's `NSUbiquitousKeyValueStore.h`): 2.
// swift-format-ignore: AlwaysUseLowerCamelCase
public var NSUbiquitousKeyValueStoreQuotaViolationChange: Int { 2 }

/// The device's account changed: its previous data was replaced with the new account's. Apple's
/// value (Foundation's `NSUbiquitousKeyValueStore.h`): 3.
// swift-format-ignore: AlwaysUseLowerCamelCase
public var NSUbiquitousKeyValueStoreAccountChange: Int { 3 }
