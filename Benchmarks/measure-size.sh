#!/bin/sh
# Builds a defaults-only app (one @ObservableDefaults class) in release against this package, with
# the package traits on (the default: EtcdSupport) and off (traits: []), each in an empty scratch
# folder removed afterwards, and prints one line per build:
#   <traits> <bytes of the stripped binary> <engine symbols in the unstripped binary>
# and one line of build steps of a clean `swift build` of this package:
#   build-steps <count> tool-copies <targets compiled a second time as host tools>
# Usage: Benchmarks/measure-size.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

app() { # app <traits expression>
  rm -rf "$scratch/app"
  mkdir -p "$scratch/app/Sources/app"
  cat >"$scratch/app/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
  name: "app",
  dependencies: [.package(path: "$root", traits: $1)],
  targets: [
    .executableTarget(
      name: "app", dependencies: [.product(name: "ObservableDefaults", package: "$(basename "$root")")])
  ]
)
MANIFEST
  cat >"$scratch/app/Sources/app/main.swift" <<'SOURCE'
import ObservableDefaults

@ObservableDefaults(suiteName: "size")
final class Settings {
  var name = "x"
}

print(Settings().name)
SOURCE
  if ! swift build -c release --package-path "$scratch/app" >"$scratch/log" 2>&1; then
    cat "$scratch/log" >&2
    exit 1
  fi
  binary="$scratch/app/.build/release/app"
  symbols=$(nm "$binary" | grep -c -E 'ObservableDefaultsEtcd|ObservableDefaultsNATS|curl_' || true)
  strip -o "$scratch/stripped" "$binary"
  echo "$2 $(stat -c %s "$scratch/stripped") $symbols"
}

app '[.defaults]' on
app '[]' off

# Build steps: the "[n/N]" total of a clean debug build, and the targets it compiled a second
# time as host tools (a <target>-tool.build folder holding object files).
swift build --package-path "$root" --scratch-path "$scratch/build" >"$scratch/log" 2>&1
steps=$(grep -o '^\[[0-9]*/[0-9]*\]' "$scratch/log" | tail -1 | tr -d '[]' | cut -d/ -f2)
tools=0
for folder in "$scratch"/build/debug/*-tool.build; do
  if [ -n "$(find "$folder" -name '*.o' -print -quit)" ]; then tools=$((tools + 1)); fi
done
echo "build-steps $steps tool-copies $tools"
