#!/usr/bin/env bash
# Drive the real animscope binary in tmux at 80x24 and read what a newcomer could not
# (issue 38): a stored 180-degree turn in the decode pane, an export error in full (the
# message log), tree names without a repeated kind, a long field value scrolled into
# view, a help line in full (wrapped). Exits non-zero with the screen on failure.
# Builds target/debug/animscope if needed; uses a private tmux server that is always killed.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v tmux >/dev/null || { echo "tui-narrow: tmux is not installed" >&2; exit 2; }
cargo build -q --bin animscope
BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/animscope"
SOCK="animscope-narrow-$$"
TMPD="$(mktemp -d)"
cleanup() { tmux -L "$SOCK" kill-server >/dev/null 2>&1 || true; rm -rf "$TMPD"; }
trap cleanup EXIT
unset TMUX
T() { tmux -L "$SOCK" "$@"; }
FAILED=0
screen() { T capture-pane -p -t narrow 2>/dev/null || true; }
# the screen's text with pane borders and line breaks removed (wrapped text read whole)
flat() { screen | sed -e 's/[│┌┐└┘─]//g' -e 's/^ *//' -e 's/ *$//' | tr '\n' ' ' | tr -s ' '; }
wait_for() { # wait_for TEXT [flat|squeezed]: until TEXT (fixed string) is on screen
  # (flat: across wrapped lines; squeezed: also across words split at the pane's edge)
  local text="$1" how="${2:-}" i
  for ((i = 0; i < 100; i++)); do
    if [ "$how" = flat ]; then flat | grep -qF -- "$text" && return 0;
    elif [ "$how" = squeezed ]; then flat | tr -d ' ' | grep -qF -- "$(echo "$text" | tr -d ' ')" && return 0;
    else screen | grep -qF -- "$text" && return 0; fi
    sleep 0.1
  done
  return 1
}
check() { # check WHAT TEXT [flat]
  if wait_for "$2" "${3:-}"; then echo "ok   $1"; else
    echo "FAIL $1: \"$2\" not on screen:" >&2; screen >&2; FAILED=1; fi
}
keys() { T send-keys -t narrow "$@"; sleep 0.2; }
typ() { T send-keys -t narrow -l "$1"; T send-keys -t narrow Enter; sleep 0.2; }

T -f /dev/null new-session -d -s narrow -x 80 -y 24 \
  "env XDG_STATE_HOME=$TMPD/state XDG_CONFIG_HOME=$TMPD/config $BIN fixtures/motn/multi.mot; echo ANIMSCOPE_EXIT=\$?; sleep 60"
T set-option -t narrow status off >/dev/null
check "80x24 opens" "Hex · multi.mot"

echo "--- a stored turn of 0.5 read as 180 degrees"
keys g
typ TEST_SEQ
keys 4
check "decode pane of TEST_SEQ" "Decode · TEST_SEQ"
keys F
typ "upperleg rx"
check "the channel under the cursor in degrees" "UpperLeg_R.rx = 3.1416 rad (180.0°)"
check "the key's detail read whole" "value 0.5 (stored turns, = 180.0°)" flat

echo "--- an export error in full"
keys e
keys C-u
# a folder that cannot be made (nothing can be created under /proc): the prompt offers to
# create it, and making it fails
OUT="/proc/nonexistent-animscope-dir/a/long/path/so/the/status/line/cannot/hold/it/TEST_SEQ.json"
typ "$OUT"
check "the prompt offers to create the folder" "create the missing directory? (y/n) /proc/"
keys y
check "status line says there is more" "[L] more"
keys L
check "message log open" "Messages · "
check "the whole path in the log" "$OUT" squeezed
check "the reason in the log" "No such file or directory" flat
keys Escape

echo "--- tree names without the kind the parent says"
keys 3
keys g
keys C-u
typ multi.mot/data
keys 1
keys l
check "a sequence's bare name under 'data  sequence data'" "▸ TEST_SEQ  10 fr"
if screen | cut -c1-24 | grep -qF "seq["; then echo "FAIL the tree repeats seq[ under data:" >&2; screen >&2; FAILED=1; else echo "ok   no seq[ prefix in the tree"; fi

echo "--- a long field value scrolled into view"
keys g
typ 0x1bc
keys 3
keys l
check "the stored half turn in degrees, scrolled" "frame 3, code 1; 180.0°"

echo "--- a help line in full"
keys '?'
check "help open" "keymap: default"
for _ in $(seq 1 60); do keys Down; if flat | grep -qF "(xxd -i style)"; then break; fi; done
check "the copy_c help line whole" "copy field as a C declaration (xxd -i style)" flat
keys Escape
keys q
check "quits" "ANIMSCOPE_EXIT=0"

if [ "$FAILED" -ne 0 ]; then echo "tui-narrow: FAILED" >&2; exit 1; fi
echo "tui-narrow: all checks passed"
