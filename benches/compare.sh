#!/usr/bin/env bash
# compare.sh: urlx against reading the file (dd to /dev/null, what `cat`
# does), a bare memchr ':' count, ripgrep and
# linkify on the synthetic inputs of gen_inputs.py; prints one markdown
# table per input (median time, MB/s, peak RSS, URLs found, time / urlx).
#
# Environment:
#   BENCH_DIR      where inputs and results go (default /tmp/urlx-bench)
#   BENCH_SIZE_MB  size of each input in MiB (default 256)
#   BENCH_RUNS     hyperfine runs per command (default 5, plus 1 warmup)
#   BENCH_INPUTS   inputs to run (default "sparse prose dense")
#
# Needs cargo, python3, hyperfine, ripgrep and GNU time; installs the last
# three with apt-get when missing. The inputs are generated once per size
# into $BENCH_DIR/<size>M/ and reused.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/urlx-bench}
BENCH_SIZE_MB=${BENCH_SIZE_MB:-256}
BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_INPUTS=${BENCH_INPUTS:-sparse prose dense}
# The URL regex given to `rg -o`: scheme "://" then no space, < > or ".
# It finds no mailto:/news: URLs, keeps trailing punctuation and does
# not join URLs wrapped across lines.
RG_REGEX='[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>"]+'

log() { echo "compare.sh: $*" >&2; }

# --- tools ---------------------------------------------------------------
need_apt() {
    # need_apt COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 && return 0
    log "installing $2"
    apt-get install -y "$2" >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y "$2" >/dev/null; }
}
need_apt hyperfine hyperfine
need_apt rg ripgrep
[ -x /usr/bin/time ] || need_apt /usr/bin/time time

# --- builds --------------------------------------------------------------
log "building urlx (release)"
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" --bin urlx
log "building linkify-urls and memchr-count (release)"
cargo build --release --quiet \
    --manifest-path "$ROOT/benches/linkify-bin/Cargo.toml"
URLX=${CARGO_TARGET_DIR:-$ROOT/target}/release/urlx
LINKIFY_DIR=${CARGO_TARGET_DIR:-$ROOT/benches/linkify-bin/target}/release
LINKIFY=$LINKIFY_DIR/linkify-urls
MEMCHR=$LINKIFY_DIR/memchr-count
for b in "$URLX" "$LINKIFY" "$MEMCHR"; do
    [ -x "$b" ] || { log "missing binary $b"; exit 1; }
done

# --- inputs --------------------------------------------------------------
DATA=$BENCH_DIR/${BENCH_SIZE_MB}M
RESULTS=$BENCH_DIR/results-${BENCH_SIZE_MB}M
mkdir -p "$DATA" "$RESULTS"
size=$((BENCH_SIZE_MB * 1024 * 1024))
for name in $BENCH_INPUTS; do
    f=$DATA/$name.txt
    if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" -ne "$size" ]; then
        log "generating $f"
        python3 "$ROOT/benches/gen_inputs.py" --size "${BENCH_SIZE_MB}M" \
            --out "$DATA" --corpora "$ROOT/corpora" --only "$name"
    fi
done

# --- machine -------------------------------------------------------------
echo "## urlx comparison: ${BENCH_SIZE_MB} MiB inputs, $BENCH_RUNS runs"
echo
echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo |
    sed 's/.*: //'), $(free -g | awk '/Mem:/{print $2}') GiB RAM"
echo "- $("$URLX" --version), $(rg --version | head -1)," \
    "$(hyperfine --version), linkify $(grep -A1 'name = "linkify"' \
    "$ROOT/benches/linkify-bin/Cargo.lock" 2>/dev/null |
    sed -n 's/version = "\(.*\)"/\1/p')"
echo "- rg regex: \`$RG_REGEX\`"
echo "- median of $BENCH_RUNS runs after 1 warmup (hyperfine, output to a" \
    "pipe); MB/s = 10^6 bytes/s; RSS = peak, /usr/bin/time -f %M, one" \
    "extra run; URLs = output lines of that run"
echo

# --- runs ----------------------------------------------------------------
# Each entry: name|command (run without a shell: no redirections).
tools() {
    local f=$1
    printf '%s\n' \
        "read|dd if=$f of=/dev/null bs=128k status=none" \
        "memchr-count|$MEMCHR $f" \
        "urlx|$URLX $f" \
        "urlx -j1|$URLX -j1 $f" \
        "rg -o|rg -o --no-filename --no-line-number -e '$RG_REGEX' $f" \
        "linkify|$LINKIFY $f"
}

for name in $BENCH_INPUTS; do
    f=$DATA/$name.txt
    json=$RESULTS/$name.json
    extra=$RESULTS/$name.extra
    args=()
    : >"$extra"
    while IFS='|' read -r tool cmd; do
        args+=(-n "$tool" "$cmd")
        # Peak RSS and output lines from one extra run, outside hyperfine.
        rss=$(mktemp)
        lines=$(eval "/usr/bin/time -f %M -o $rss $cmd" | wc -l)
        case $tool in
            read) urls="–" ;;
            memchr-count) urls="– ($(eval "$cmd") \`:\`)" ;;
            *) urls=$lines ;;
        esac
        printf '%s|%s|%s\n' "$tool" "$(tail -1 "$rss")" "$urls" >>"$extra"
        rm -f "$rss"
    done < <(tools "$f")
    log "hyperfine on $f"
    hyperfine --warmup 1 --runs "$BENCH_RUNS" --shell=none --output=pipe \
        --ignore-failure --style basic --export-json "$json" \
        "${args[@]}" >"$RESULTS/$name.hyperfine.txt"
    echo "### $name.txt ($(stat -c %s "$f") bytes)"
    echo
    python3 - "$json" "$extra" "$(stat -c %s "$f")" <<'EOF'
import json, statistics, sys
runs = json.load(open(sys.argv[1]))["results"]
extra = {}
for line in open(sys.argv[2]):
    tool, rss, urls = line.rstrip("\n").split("|", 2)
    extra[tool] = (int(rss), urls)
size = int(sys.argv[3])
med = {r["command"]: statistics.median(r["times"]) for r in runs}
base = med["urlx"]
print("| tool | median s | min–max s | MB/s | peak RSS MiB | URLs "
      "| time / urlx |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in runs:
    t = r["command"]
    m = med[t]
    rss, urls = extra[t]
    print("| %s | %.3f | %.3f–%.3f | %.0f | %.1f | %s | %.2f |" % (
        t, m, min(r["times"]), max(r["times"]), size / m / 1e6,
        rss / 1024, urls, m / base))
EOF
    echo
done
