# Shared by scripts/editor, scripts/test, scripts/docs, scripts/cloud-demo and .ci/run (sourced,
# not run).
#
# missing_build_packages: the Debian packages the Swift build needs and this machine lacks
#   (ncurses, libcurl and libnats development files).
# missing_test_packages: the same plus what the tests start (etcd server and client, NATS
#   server, tmux), the shells and man the install files are checked with (zsh, fish, man-db),
#   python3-cryptography (the NATS tests make NKeys with it), and libfiu and libfaketime (the
#   storage torture test injects I/O failures and runs a writer whose clock is ahead), and strace
#   (ProgramStartExitTests looks for waits between a program's output and its exit).
# missing_docs_packages: the build's packages plus jq (scripts/docs reads symbol graphs with it).
# install_packages WHO PACKAGE…: installs them with apt-get as root (after apt-get update), or
#   says what to install and exits 1.

missing_build_packages() {
  local missing=()
  [ -e /usr/include/ncursesw/curses.h ] || [ -e /usr/include/curses.h ] || missing+=(libncursesw5-dev)
  [ -e /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -e /usr/include/curl/curl.h ] ||
    [ -n "$(find /usr/include -maxdepth 3 -path '*curl/curl.h' -print -quit 2>/dev/null)" ] ||
    missing+=(libcurl4-openssl-dev)
  [ -e /usr/include/nats/nats.h ] || missing+=(libnats-dev)
  echo "${missing[@]}"
}

missing_test_packages() {
  local missing=($(missing_build_packages))
  command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
  command -v etcdctl >/dev/null 2>&1 || missing+=(etcd-client)
  command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || missing+=(nats-server)
  command -v tmux >/dev/null 2>&1 || missing+=(tmux)
  command -v zsh >/dev/null 2>&1 || missing+=(zsh)
  command -v fish >/dev/null 2>&1 || missing+=(fish)
  command -v man >/dev/null 2>&1 || missing+=(man-db)
  python3 -c 'import cryptography' >/dev/null 2>&1 || missing+=(python3-cryptography)
  command -v fiu-run >/dev/null 2>&1 || missing+=(fiu-utils)
  command -v faketime >/dev/null 2>&1 || missing+=(faketime)
  command -v strace >/dev/null 2>&1 || missing+=(strace)
  echo "${missing[@]}"
}

missing_docs_packages() {
  local missing=($(missing_build_packages))
  command -v jq >/dev/null 2>&1 || missing+=(jq)
  echo "${missing[@]}"
}

install_packages() {
  local who=$1
  shift
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$who: installing $*…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
  else
    echo "$who needs: sudo apt-get install $*" >&2
    exit 1
  fi
}
