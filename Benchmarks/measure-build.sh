#!/bin/sh
# Times clean debug builds of this package, each in an empty scratch folder that is removed
# afterwards, and prints one line per build:
#   package <seconds>   swift build (every target except tests)
#   tests <seconds>     swift build --build-tests (everything)
#   macros <seconds>    swift build --target ObservableDefaultsMacros (the macro plugin alone)
# Usage: Benchmarks/measure-build.sh [runs]   (default 1; each run does all three)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-1}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

now() { date +%s.%N; }

# clean_build <label> <swift build arguments...>
clean_build() {
  label=$1
  shift
  rm -rf "$scratch/build"
  start=$(now)
  if ! swift build --package-path "$root" --scratch-path "$scratch/build" "$@" >"$scratch/log" 2>&1; then
    cat "$scratch/log" >&2
    exit 1
  fi
  end=$(now)
  awk -v l="$label" -v s="$start" -v e="$end" 'BEGIN { printf "%s %.1f\n", l, e - s }'
}

i=0
while [ "$i" -lt "$runs" ]; do
  clean_build package
  clean_build tests --build-tests
  clean_build macros --target ObservableDefaultsMacros
  i=$((i + 1))
done
