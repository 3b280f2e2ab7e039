#!/usr/bin/env bash
# Drive the real animscope binary in tmux (80x24, 200x60, a resize, NO_COLOR, a bad
# keymap, panic, SIGTERM/SIGINT/SIGQUIT, SIGTSTP then SIGCONT, the terminal going away),
# capture the pane and check its text. Exits non-zero with the screen on failure.
# Builds target/debug/animscope if needed; uses a private tmux server that is always killed.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v tmux >/dev/null || { echo "tui-smoke: tmux is not installed" >&2; exit 2; }
cargo build -q --bin animscope
BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/animscope"
[ -x "$BIN" ] || { echo "tui-smoke: $BIN missing after build" >&2; exit 2; }

RUN=0
SOCK="animscope-smoke-$$-$RUN"
TMPD="$(mktemp -d)"
cleanup() { tmux -L "$SOCK" kill-server >/dev/null 2>&1 || true; rm -rf "$TMPD"; }
trap cleanup EXIT
unset TMUX
T() { tmux -L "$SOCK" "$@"; }

FAILED=0
screen() { T capture-pane -p -t smoke 2>/dev/null || true; }

# wait_for TEXT [SECONDS]: until TEXT (fixed string) is on screen
wait_for() {
  local text="$1" secs="${2:-10}" i
  for ((i = 0; i < secs * 10; i++)); do
    if screen | grep -qF -- "$text"; then return 0; fi
    sleep 0.1
  done
  return 1
}

check() {
  local what="$1" text="$2"
  if wait_for "$text"; then
    echo "ok   $what"
  else
    echo "FAIL $what: \"$text\" not on screen:" >&2
    screen >&2
    FAILED=1
  fi
}

# restored_modes WHAT: the pane left the alternate screen and shows its cursor again
restored_modes() {
  local modes
  modes="$(T display -p -t smoke '#{alternate_on} #{cursor_flag}')"
  if [ "$modes" = "0 1" ]; then echo "ok   $1: no alternate screen, cursor visible"; else
    echo "FAIL $1: alternate_on/cursor_flag = $modes, expected 0 1" >&2; FAILED=1; fi
}

keys() { T send-keys -t smoke "$@"; sleep 0.15; }
typ() { T send-keys -t smoke -l "$1"; T send-keys -t smoke Enter; sleep 0.15; }

start() { # start W H [ENV...] -- [ARGS...]
  local w="$1" h="$2"; shift 2
  local envs=() args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  args=("$@")
  T kill-server >/dev/null 2>&1 || true
  RUN=$((RUN + 1))
  SOCK="animscope-smoke-$$-$RUN"
  T -f /dev/null new-session -d -s smoke -x "$w" -y "$h" \
    "env XDG_STATE_HOME=$TMPD/state XDG_CONFIG_HOME=$TMPD/config ${envs[*]} $BIN ${args[*]}; echo ANIMSCOPE_EXIT=\$?; if stty -a | grep -q -- ' -icanon'; then echo TTY_RAW; else echo TTY_COOKED; fi; if stty -a | grep -q -- ' -echo '; then echo TTY_NOECHO; else echo TTY_ECHO; fi; sleep 60"
  T set-option -t smoke status off >/dev/null
}

flows() { # flows W H
  local w="$1" h="$2"
  echo "--- ${w}x${h}"
  start "$w" "$h"
  check "${w}x${h} opens the demo" "Hex · demo.bin"
  check "${w}x${h} tree pane" "Tree"
  check "${w}x${h} status hints" "[?] help"
  keys '?'
  check "${w}x${h} help from keymap" "keymap: default"
  # help opens on the focused pane's section; typing filters it
  T send-keys -t smoke -l "restore"
  sleep 0.15
  check "${w}x${h} help filter shows quit" "filter: restore"
  check "${w}x${h} help lists quit" "quit and restore the terminal"
  keys Escape
  keys Tab
  check "${w}x${h} tab focuses hex" "▶ Hex"
  keys g
  check "${w}x${h} goto prompt" "goto (0x150, +0x20, path, name, MEMBER@0x1a0)>"
  typ 0x20
  check "${w}x${h} goto moved the cursor" " 0x20/"
  keys g
  typ +0x10
  check "${w}x${h} relative goto" " 0x30/"
  keys ']'
  keys /
  check "${w}x${h} search prompt" "search (hex: 1f 8b · text · i:text any case)>"
  typ demo
  if wait_for "\"demo\" at 0x" || wait_for "\"demo\" not found" 1; then echo "ok   ${w}x${h} search ran"; else
    echo "FAIL ${w}x${h} search gave no answer" >&2; screen >&2; FAILED=1; fi
  keys n
  keys w
  check "${w}x${h} walk mode" "Walk · step 1/"
  keys ')'
  check "${w}x${h} walk step in status" "walk step"
  keys 4
  check "${w}x${h} decode pane" "Decode"
  keys 1 Enter Down Down
  keys q
  check "${w}x${h} quits cleanly" "ANIMSCOPE_EXIT=0"
  check "${w}x${h} tty back in cooked mode" "TTY_COOKED"
  if screen | grep -qF "─"; then echo "FAIL ${w}x${h} screen not restored after quit" >&2; screen >&2; FAILED=1; else
    echo "ok   ${w}x${h} terminal restored"; fi
}

flows 80 24
flows 200 60

echo "--- resize"
start 80 24
check "resize: narrow layout" "Hex · demo.bin"
T resize-window -t smoke -x 200 -y 60
check "resize: wide layout shows decode" "Decode"
check "resize: wide layout shows walk" "Walk ·"
T resize-window -t smoke -x 60 -y 14
check "resize: small still draws" "demo.bin"
keys q
check "resize: quits" "ANIMSCOPE_EXIT=0"

echo "--- NO_COLOR"
start 80 24 NO_COLOR=1
check "NO_COLOR opens" "Hex · demo.bin"
if T capture-pane -e -p -t smoke | grep -qP '\e\[[0-9;]*(3[0-7]|9[0-7]|4[0-7]|10[0-7]|38;5;[0-9]+|48;5;[0-9]+)m'; then
  echo "FAIL NO_COLOR screen has colours" >&2; FAILED=1
else
  echo "ok   NO_COLOR: no colour codes"
fi
keys q
check "NO_COLOR quits" "ANIMSCOPE_EXIT=0"

echo "--- bad keymap"
printf '[[bind]]\nkeys = "q"\naction = "explode"\n' >"$TMPD/bad.toml"
start 120 24 -- --keymap "$TMPD/bad.toml"
check "bad keymap message" "unknown action \"explode\""
keys q
check "bad keymap: defaults still quit" "ANIMSCOPE_EXIT=0"

echo "--- vim keymap"
start 80 24 -- --keymap vim
check "vim keymap opens" "Hex · demo.bin"
keys 2 G
check "vim G goes to the end" "▶ Hex"
keys Z Z
check "vim ZZ quits" "ANIMSCOPE_EXIT=0"

echo "--- archive beyond the interactive listing budget: listed in the background"
# 48 MiB, sparse: the gzarc DATA.BIN fixture every MiB; 16 MiB are listed before the first
# frame, the rest while the TUI runs. `tree` (complete listing) gives the expected count.
for i in $(seq 0 47); do
  dd if=fixtures/gzarc/DATA.BIN of="$TMPD/big.bin" bs=1M seek="$i" conv=notrunc status=none
done
truncate -s 48M "$TMPD/big.bin"
WANT="$("$BIN" tree "$TMPD/big.bin" | head -1 | grep -oE '[0-9]+ members$')"
start 200 60 -- "$TMPD/big.bin"
check "big archive: opens" "Hex · big.bin"
check "big archive: every member listed ($WANT)" "big.bin  gzip archive  $WANT"
check "big archive: status hints back" "[?] help"
if screen | grep -qF "listing "; then echo "FAIL big archive: listing indicator left on" >&2; screen >&2; FAILED=1; else
  echo "ok   big archive: no listing indicator once complete"; fi
keys q
check "big archive: quits" "ANIMSCOPE_EXIT=0"

echo "--- find a sequence by a fragment of its name (synthetic MOTN fixture)"
start 80 24 -- fixtures/motn/multi.mot
check "find: opens the MOTN file" "Hex · multi.mot"
keys f
check "find: lists the animations before anything is typed" "Find · 10 animations of"
T send-keys -t smoke -l "walkl02"; sleep 0.15
check "find: live results" "Find · 1/2"
check "find: the sequence is listed" "multi.mot/data/seq[A_WALK_L_02]  sequence"
keys Enter
check "find: lands on the sequence" "at multi.mot/data/seq[A_WALK_L_02]"
check "find: its curves are shown" "Decode · A_WALK_L_02  37 frames @30 Hz"
check "find: channels listed by bone" "[-] Root (4/6)"
keys e
check "export prompt: offers a path" "(tab completes)> A_WALK_L_02.json"
keys C-u
T send-keys -t smoke -l "fixtures/motn/mul"; T send-keys -t smoke Tab; sleep 0.15
check "export prompt: Tab completes a path" "(tab completes)> fixtures/motn/multi.mot"
keys Escape
keys g
typ "tmn_bag"
check "goto NAME: lands on the sequence" "at multi.mot/data/seq[TMN_BAG]"
keys q
check "find: quits" "ANIMSCOPE_EXIT=0"

echo "--- edit a key value (SC6 fixture): the curve and hex follow, undo, edit again, write"
cp fixtures/sc6/fixture_a.mot "$TMPD/fixture_a.mot"
start 160 50 -- "$TMPD/fixture_a.mot"
check "edit: opens the clip bank" "Hex · fixture_a.mot"
# tree: offset table, clip[0] (expanded), header, group table, group[0]; fields: base.w1
keys j j Enter j j j 3 j
check "edit: root.y before" "[x] y    0.9560 m"
keys c
check "edit: prompt prefilled with the value shown" "set base.w1 (2 B @0x32) to> 956"
keys C-u
typ 1000
check "edit: the curve follows (1000 units of 0.001 m)" "[x] y    1.0000 m"
check "edit: the hex bytes follow (0x03e8)" "00000030  00 00[e8]03"
check "edit: counted in the status line" "1 edit [s]"
keys C-z
check "edit: taken back" "[x] y    0.9560 m"
check "edit: hex as before" "00000030  00 00[bc]03"
keys c C-u
typ 1234
check "edit: edited again" "[x] y    1.2340 m"
keys s
check "edit: write prompt offers a name beside the input" "fixture_a.edited.mot"
keys Enter
check "edit: written" "wrote 110 bytes to"
keys q
check "edit: quits" "ANIMSCOPE_EXIT=0"
if "$BIN" decode "$TMPD/fixture_a.edited.mot" --anim 0 | grep -qP '^0\t0\.0\t0\t0\t1234\t0\t0$'; then
  echo "ok   edit: the written file decodes with the typed value"
else
  echo "FAIL edit: the written file does not decode with 1234 at key 0" >&2; FAILED=1
fi
if cmp -s fixtures/sc6/fixture_a.mot "$TMPD/fixture_a.mot"; then echo "ok   edit: the input is unchanged"; else
  echo "FAIL edit: the input changed" >&2; FAILED=1; fi

echo "--- panic restores the terminal"
start 80 24 ANIMSCOPE_TUI_PANIC_TEST=1
check "panic: message printed" "panic requested by ANIMSCOPE_TUI_PANIC_TEST"
check "panic: non-zero exit" "ANIMSCOPE_EXIT=101"
if screen | grep -qF "─"; then echo "FAIL panic: screen not restored" >&2; screen >&2; FAILED=1; else
  echo "ok   panic: terminal restored"; fi
check "panic: tty back in cooked mode" "TTY_COOKED"
check "panic: echo back on" "TTY_ECHO"
restored_modes "panic"

echo "--- SIGTERM restores the terminal"
start 80 24
check "sigterm: TUI up" "Hex · demo.bin"
pkill -TERM -P "$(T display -p -t smoke '#{pane_pid}')" || true
check "sigterm: exit status 128+15" "ANIMSCOPE_EXIT=143"
if screen | grep -qF "─"; then echo "FAIL sigterm: screen not restored" >&2; screen >&2; FAILED=1; else
  echo "ok   sigterm: terminal restored"; fi
check "sigterm: tty back in cooked mode" "TTY_COOKED"
check "sigterm: echo back on" "TTY_ECHO"
restored_modes "sigterm"

# fatal_signal NAME NUMBER: the signal restores the terminal and exits with 128 + NUMBER
fatal_signal() {
  local name="$1" num="$2" lower
  lower="$(echo "$name" | tr '[:upper:]' '[:lower:]')"
  echo "--- SIG$name restores the terminal"
  start 80 24
  check "$lower: TUI up" "Hex · demo.bin"
  pkill "-$name" -P "$(T display -p -t smoke '#{pane_pid}')" || true
  check "$lower: exit status 128+$num" "ANIMSCOPE_EXIT=$((128 + num))"
  if screen | grep -qF "─"; then echo "FAIL $lower: screen not restored" >&2; screen >&2; FAILED=1; else
    echo "ok   $lower: terminal restored"; fi
  check "$lower: tty back in cooked mode" "TTY_COOKED"
  check "$lower: echo back on" "TTY_ECHO"
  restored_modes "$lower"
}
fatal_signal INT 2
fatal_signal QUIT 3

# pane_modes: alternate_on cursor_flag of the pane
pane_modes() { T display -p -t smoke '#{alternate_on} #{cursor_flag}'; }

echo "--- SIGTSTP gives the terminal back and stops; SIGCONT takes it again and redraws"
start 80 24
check "tstp: TUI up" "Hex · demo.bin"
CHILD="$(pgrep -P "$(T display -p -t smoke '#{pane_pid}')" | head -1)"
PTY="$(T display -p -t smoke '#{pane_tty}')"
kill -TSTP "$CHILD"
stopped=0
for _ in $(seq 1 50); do
  if [ "$(ps -o stat= -p "$CHILD" | cut -c1)" = T ]; then stopped=1; break; fi
  sleep 0.1
done
if [ "$stopped" = 1 ]; then echo "ok   tstp: process stopped"; else
  echo "FAIL tstp: pid $CHILD not stopped ($(ps -o stat= -p "$CHILD"))" >&2; FAILED=1; fi
restored_modes "tstp (stopped)"
if stty -F "$PTY" -a | grep -q -- ' icanon' && stty -F "$PTY" -a | grep -q -- ' echo '; then
  echo "ok   tstp: tty in cooked mode with echo while stopped"; else
  echo "FAIL tstp: tty still raw while stopped: $(stty -F "$PTY" -a | tr '\n' ' ')" >&2; FAILED=1; fi
if screen | grep -qF "─"; then echo "FAIL tstp: TUI frame left on the restored screen" >&2; screen >&2; FAILED=1; else
  echo "ok   tstp: main screen shown"; fi
kill -CONT "$CHILD"
check "cont: TUI redrawn" "Hex · demo.bin"
check "cont: status line redrawn" "[?] help"
if [ "$(pane_modes)" = "1 0" ]; then echo "ok   cont: alternate screen, cursor hidden"; else
  echo "FAIL cont: alternate_on/cursor_flag = $(pane_modes), expected 1 0" >&2; FAILED=1; fi
if stty -F "$PTY" -a | grep -q -- ' -icanon'; then echo "ok   cont: tty raw again"; else
  echo "FAIL cont: tty not raw after SIGCONT" >&2; FAILED=1; fi
keys '?'
check "cont: still answers keys (help)" "keymap: default"
keys Escape
keys q
check "cont: quits cleanly" "ANIMSCOPE_EXIT=0"
check "cont: tty back in cooked mode" "TTY_COOKED"
restored_modes "cont"

echo "--- the terminal goes away (ssh drop, tmux killed): no orphan left spinning"
start 80 24
check "hangup: TUI up" "Hex · demo.bin"
CHILD="$(pgrep -P "$(T display -p -t smoke '#{pane_pid}')" | head -1)"
T kill-server >/dev/null 2>&1 || true
gone=0
for _ in $(seq 1 30); do
  if ! kill -0 "$CHILD" 2>/dev/null; then gone=1; break; fi
  sleep 0.1
done
if [ "$gone" = 1 ]; then echo "ok   hangup: process exited"; else
  echo "FAIL hangup: pid $CHILD still running after its terminal closed" >&2; kill -9 "$CHILD"; FAILED=1; fi

if [ "$FAILED" -ne 0 ]; then echo "tui-smoke: FAILED" >&2; exit 1; fi
echo "tui-smoke: all checks passed"
