# The release build of settings-editor, shared by scripts/install and scripts/package (sourced,
# not run).
#
# release_binary: builds settings-editor in release mode with the Swift runtime and Foundation
#   linked in (a build folder of its own, so the checkout's other builds are not redone), and
#   prints the program's path; SwiftPM's output goes to standard error. Linked statically, the
#   program starts in 5–8 ms instead of 16 (Benchmarks/README.md) and runs on a machine without
#   a Swift toolchain: it needs only the C library, the C++ runtime and ncurses (libcurl and libnats
#   are loaded when an engine is used; see Sources/COptionalLibrary).
#
# release_flags: what every release build of a program here adds (the benchmarks' too). The
#   compiler reaches the metadata of each generic type a program names (a dictionary of strings,
#   a set of keys) through its accessor, with the conformances it needs in hand, instead of by a
#   mangled name that the runtime demangles and resolves by scanning every conformance record
#   of the program, once per type: `settings-editor write` of one key 7.14 M -> 5.56 M
#   instructions, `read` 5.51 M -> 4.70 M, for 0.1 % more code (Benchmarks/README.md).

release_flags=(-c release --static-swift-stdlib
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)

release_binary() {
  local build=(swift build "${release_flags[@]}" --scratch-path .build/release-static)
  "${build[@]}" --product settings-editor >&2
  echo "$("${build[@]}" --show-bin-path)/settings-editor"
}
