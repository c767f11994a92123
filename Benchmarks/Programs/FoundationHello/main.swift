// foundation-hello: the baseline of minimal-defaults' start to exit — a Foundation program that
// reads one key of `UserDefaults.standard` and prints it.
import Foundation

print(UserDefaults.standard.string(forKey: "name") ?? "hello")
