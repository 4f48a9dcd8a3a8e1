#!/usr/bin/env bash
# pathological.sh: whole-process throughput of urlx on 64 MiB of each
# pathological input (the units of `benches/stages.rs`'
# "pathological" group: only `<`, only `:`, `http://` repeated, `<URL:`
# repeated without `>`, only `(`, a hyphen line break on every line, only
# `%`) next to the prose input of gen_inputs.py, with hyperfine in
# interleaved rounds (common.sh). Prints each input's median time,
# rate and rate as a fraction of the prose rate (the target: at least
# 0.25).
#
# Environment: BENCH_DIR (default /tmp/urlx-bench), PATH_SIZE_MB (64),
# BENCH_RUNS (10). urlx exits with 1 on the inputs without a URL, so
# hyperfine ignores exit codes (-i).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
. "$ROOT/benches/common.sh"
BENCH_DIR=${BENCH_DIR:-/tmp/urlx-bench}
PATH_SIZE_MB=${PATH_SIZE_MB:-64}
BENCH_RUNS=${BENCH_RUNS:-10}
need_apt hyperfine hyperfine
build_urlx
DIR=$BENCH_DIR/pathological-${PATH_SIZE_MB}M
mkdir -p "$DIR"
python3 - "$DIR" "$PATH_SIZE_MB" <<'PY'
import os, sys
out, mb = sys.argv[1], int(sys.argv[2])
size = mb << 20
units = {
    "lt": b"<", "colon": b":", "http": b"http://",
    "url_prefix_unclosed": b"<URL:", "open_paren": b"(",
    "hyphen_breaks": b"data:,a-\n", "percent": b"%",
}
for name, unit in units.items():
    path = os.path.join(out, name + ".txt")
    if os.path.exists(path) and os.path.getsize(path) == size:
        continue
    data = unit * (size // len(unit) + 1)
    with open(path, "wb") as f:
        f.write(data[:size])
PY
PROSE=$BENCH_DIR/${PATH_SIZE_MB}M/prose.txt
if [ ! -f "$PROSE" ]; then
    python3 "$ROOT/benches/gen_inputs.py" --only prose \
        --out "$BENCH_DIR/${PATH_SIZE_MB}M" --size "${PATH_SIZE_MB}M"
fi
NAMES="prose lt colon http url_prefix_unclosed open_paren hyphen_breaks percent"
CMDS=()
for n in $NAMES; do
    f=$DIR/$n.txt
    [ "$n" = prose ] && f=$PROSE
    CMDS+=("$n" "$URLX --format text $f")
done
JSON=$DIR/hyperfine.json
hyperfine_rounds "$BENCH_RUNS" 1 "$JSON" -N -i -- "${CMDS[@]}"
python3 - "$JSON" "$PATH_SIZE_MB" <<'PY'
import json, statistics, sys
res = json.load(open(sys.argv[1]))["results"]
size = int(sys.argv[2]) << 20
med = {r["command"]: statistics.median(r["times"]) for r in res}
prose = size / med["prose"]
print("| input | median s | MB/s | rate / prose rate |")
print("|---|---:|---:|---:|")
for name, t in med.items():
    rate = size / t
    print(f"| {name} | {t:.3f} | {rate / 1e6:.0f} | {rate / prose:.2f} |")
PY
