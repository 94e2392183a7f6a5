#!/bin/sh
# SPDX-License-Identifier: MIT
# with_display.sh KIND COMMAND [ARGS...]
#
# Runs COMMAND with a private virtual display of KIND and stops the
# display afterwards; exits with COMMAND's status, or 77 (ctest's "skip")
# when KIND's server is not installed or cannot start here.
#
#   xvfb         Xvfb, 1024x768x24, DISPLAY set
#   xvfb-noshm   the same without the MIT-SHM extension (PutImage path)
#   weston       weston --backend=headless-backend.so, WAYLAND_DISPLAY and
#                a private XDG_RUNTIME_DIR set; with --debug, so clients
#                may take screenshots (weston-screenshooter writes a PNG of
#                the whole screen into its current directory), announced
#                by WESTON_SCREENSHOOTER=1
#   none         COMMAND as is
#
# Used by the presentation tests (tests/vulkan) and scripts/run.sh.
set -u
kind=$1; shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/swgpu-display.XXXXXX") || exit 1
server=
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for TEST-EXPRESSION...: up to 10 s for the server to come up.
wait_for() {
  i=0
  while ! "$@"; do
    i=$((i + 1))
    if [ $i -gt 100 ] || ! kill -0 "$server" 2>/dev/null; then
      return 1
    fi
    sleep 0.1
  done
}

case $kind in
xvfb|xvfb-noshm)
  if ! command -v Xvfb >/dev/null; then
    echo "with_display: Xvfb is not installed (Debian package xvfb)" >&2
    exit 77
  fi
  extra=
  [ "$kind" = xvfb-noshm ] && extra="-extension MIT-SHM"
  # -displayfd: Xvfb takes a free display number and writes it once it
  # accepts connections. -nolisten tcp: a local socket only. -noreset:
  # an X server resets when its last client leaves, and refuses
  # connections meanwhile (a test that opens one window after another
  # would see a connection error now and then).
  # shellcheck disable=SC2086
  Xvfb -displayfd 1 -screen 0 1024x768x24 -nolisten tcp -noreset $extra \
    >"$tmp/display" 2>"$tmp/server.log" &
  server=$!
  if ! wait_for test -s "$tmp/display"; then
    echo "with_display: Xvfb did not start:" >&2
    cat "$tmp/server.log" >&2
    exit 77
  fi
  DISPLAY=:$(head -n 1 "$tmp/display")
  export DISPLAY
  ;;
weston)
  if ! command -v weston >/dev/null; then
    echo "with_display: weston is not installed (Debian package weston)" >&2
    exit 77
  fi
  XDG_RUNTIME_DIR=$tmp
  export XDG_RUNTIME_DIR
  chmod 700 "$tmp"
  socket=swgpu-wayland-$$
  # The headless backend needs no GPU, no seat and no display; the
  # pixman renderer keeps the composited frames in memory (screenshots
  # of its default no-op renderer never finish).
  weston --backend=headless-backend.so --use-pixman --socket="$socket" \
    --idle-time=0 --width=1024 --height=768 --debug \
    >"$tmp/server.log" 2>&1 &
  server=$!
  if ! wait_for test -S "$tmp/$socket"; then
    echo "with_display: weston did not start:" >&2
    cat "$tmp/server.log" >&2
    exit 77
  fi
  WAYLAND_DISPLAY=$socket
  WESTON_SCREENSHOOTER=1
  export WAYLAND_DISPLAY WESTON_SCREENSHOOTER
  unset DISPLAY
  ;;
none)
  ;;
*)
  echo "with_display: unknown display kind '$kind'" >&2
  exit 2
  ;;
esac

"$@"
