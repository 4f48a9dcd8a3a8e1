#!/usr/bin/env bash
# scaling.sh: how close `urlx -j2` comes to what the machine gives two
# independent processes. The input is cut in two at a line start near
# its middle (at a `From ` line for an mbox, so each half is whole
# messages); then, in interleaved rounds (`ab.py`), `urlx -j1` on the
# whole input, `urlx -j2` on it, and two `urlx -j1` processes at once,
# one on each half. The third is the ceiling for the second: the same
# work on two CPUs with nothing shared.
#
#     bash benches/scaling.sh INPUT [ROUNDS]
#
# ROUNDS defaults to 11. Environment: URLX (a urlx binary; built from
# this tree if unset), URLX_ARGS (options given to every run, e.g. -c).
# The halves are written next to INPUT's name in BENCH_DIR
# (/tmp/urlx-bench by default) and kept for the next run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
. "$ROOT/benches/common.sh"
INPUT=${1:?usage: scaling.sh INPUT [ROUNDS]}
ROUNDS=${2:-11}
BENCH_DIR=${BENCH_DIR:-/tmp/urlx-bench}
URLX_ARGS=${URLX_ARGS:-}
[ -n "${URLX:-}" ] || build_urlx
mkdir -p "$BENCH_DIR"
base=$BENCH_DIR/$(basename "$INPUT")
A=$base.half1
B=$base.half2
if [ ! -s "$A" ] || [ ! -s "$B" ] || [ "$INPUT" -nt "$A" ]; then
    python3 - "$INPUT" "$A" "$B" <<'PY'
import sys
src, a, b = sys.argv[1:]
data = open(src, "rb").read()
half = len(data) // 2
# The first line start past the middle; for an mbox, the first message.
cut = data.find(b"\n\nFrom ", half)
cut = cut + 2 if cut >= 0 else data.find(b"\n", half) + 1
if cut <= 0:
    sys.exit("scaling.sh: no line start past the middle of " + src)
open(a, "wb").write(data[:cut])
open(b, "wb").write(data[cut:])
print("scaling.sh: halves of %d and %d bytes" % (cut, len(data) - cut),
      file=sys.stderr)
PY
fi
# The two-process command: ab.py appends INPUT, which it ignores.
TWO=$(mktemp "${TMPDIR:-/tmp}/two-halves.XXXXXX")
trap 'rm -f "$TWO"' EXIT
cat >"$TWO" <<EOF
#!/bin/sh
"$URLX" -j1 $URLX_ARGS "$A" >/dev/null &
"$URLX" -j1 $URLX_ARGS "$B" >/dev/null &
wait
EOF
chmod +x "$TWO"
echo "urlx${URLX_ARGS:+ $URLX_ARGS}: -j1, -j2, and two -j1 processes on the halves at once" \
    "($ROUNDS interleaved rounds; ratio = time / -j1 time)"
# shellcheck disable=SC2086
python3 "$ROOT/benches/ab.py" "$ROUNDS" "$INPUT" \
    "$URLX" -j1 $URLX_ARGS -- "$URLX" -j2 $URLX_ARGS -- "$TWO"
