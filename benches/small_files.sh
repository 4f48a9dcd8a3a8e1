#!/usr/bin/env bash
# small_files.sh: many small files, as in a Maildir or a source tree.
# Cuts the prose input of gen_inputs.py into SMALL_COUNT files of about
# SMALL_SIZE bytes (cut at line ends) under $BENCH_DIR/small-<count>/,
# 100 files a directory, then times, with hyperfine in interleaved
# rounds (common.sh): urlx with -j2 and -j1 (text and mail
# detection), and ripgrep with the URL regex of compare.sh. Prints a
# table of medians and the -j1/-j2 ratios.
#
# Environment: BENCH_DIR (default /tmp/urlx-bench), SMALL_COUNT (20000),
# SMALL_SIZE (4096), BENCH_RUNS (10).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
. "$ROOT/benches/common.sh"
BENCH_DIR=${BENCH_DIR:-/tmp/urlx-bench}
SMALL_COUNT=${SMALL_COUNT:-20000}
SMALL_SIZE=${SMALL_SIZE:-4096}
BENCH_RUNS=${BENCH_RUNS:-10}
RG_REGEX='[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>"]+'

need_apt hyperfine hyperfine
need_apt rg ripgrep
build_urlx

TREE=$BENCH_DIR/small-$SMALL_COUNT
if [ ! -d "$TREE" ]; then
    mkdir -p "$BENCH_DIR"
    python3 "$ROOT/benches/gen_inputs.py" --only prose --out "$BENCH_DIR/small-src" \
        --size "$(( (SMALL_COUNT * SMALL_SIZE) / 1048576 + 1 ))M"
    SRC=$BENCH_DIR/small-src/prose.txt
    python3 - "$SRC" "$TREE" "$SMALL_COUNT" "$SMALL_SIZE" <<'EOF'
import os, sys
src, tree, count, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(src, "rb").read()
pos = 0
for i in range(count):
    d = os.path.join(tree, "%03d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    end = data.find(b"\n", pos + size)
    end = len(data) if end < 0 else end + 1
    with open(os.path.join(d, "%05d.txt" % i), "wb") as f:
        f.write(data[pos:end])
    pos = 0 if end >= len(data) else end
EOF
fi
echo "$SMALL_COUNT files of about $SMALL_SIZE bytes in $TREE"
cat "$TREE"/*/* >/dev/null # into the page cache
JSON=$BENCH_DIR/small-files.json
hyperfine_rounds "$BENCH_RUNS" 2 "$JSON" --style basic -- \
    "urlx -j2 --format text" "$URLX -j2 --format text $TREE" \
    "urlx -j1 --format text" "$URLX -j1 --format text $TREE" \
    "urlx -j2" "$URLX -j2 $TREE" \
    "urlx -j1" "$URLX -j1 $TREE" \
    "rg -o" "rg -o --no-filename '$RG_REGEX' $TREE"
python3 - "$JSON" <<'EOF'
import json, statistics, sys
res = json.load(open(sys.argv[1]))["results"]
med = {r["command"]: statistics.median(r["times"]) for r in res}
print("| command | median ms | min–max ms | time / rg |")
print("|---|---:|---:|---:|")
for r in res:
    t = r["times"]
    print("| `%s` | %.1f | %.1f–%.1f | %.2f |" % (
        r["command"], med[r["command"]] * 1e3, min(t) * 1e3, max(t) * 1e3,
        med[r["command"]] / med["rg -o"]))
print()
print("-j1 / -j2: %.2f (--format text), %.2f (format detected)" % (
    med["urlx -j1 --format text"] / med["urlx -j2 --format text"],
    med["urlx -j1"] / med["urlx -j2"]))
EOF
