# The release build of settings-editor, shared by scripts/install and scripts/package (sourced,
# not run).
#
# release_binary: builds settings-editor in release mode with the Swift runtime and Foundation
#   linked in (a build folder of its own, so the checkout's other builds are not redone), and
#   prints the program's path; SwiftPM's output goes to standard error. Linked statically, the
#   program starts in 5–8 ms instead of 16 (Benchmarks/README.md) and runs on a machine without
#   a Swift toolchain: it needs only the C library, the C++ runtime and ncurses (libcurl and libnats
#   are loaded when an engine is used; see Sources/COptionalLibrary).

release_binary() {
  local build=(swift build -c release --static-swift-stdlib --scratch-path .build/release-static)
  "${build[@]}" --product settings-editor >&2
  echo "$("${build[@]}" --show-bin-path)/settings-editor"
}
