#!/usr/bin/env bash
# compare.sh: urlx against reading the file (dd to /dev/null, what `cat`
# does), a bare memchr ':' count, ripgrep and linkify, core for core:
# `urlx -j1` against these single-threaded tools (ripgrep searches one
# file on one thread), on the inputs of gen_inputs.py and on an mbox of
# real mail (gen_mbox.py); prints per input one markdown table (median
# time, MB/s, peak RSS, URLs found, and how many times as fast as each
# tool `urlx -j1` is), then a second one with urlx's thread scaling
# (-j2 and -jN against -j1). On the mbox, `urlx -j1 -a --format text`
# reads the same bytes as plain text, the rate mail decoding is
# measured against.
#
# Then the slow peers, when they can be installed: xurls (Go, Debian's
# golang-mvdan-xurls-dev built with Debian's Go, or Debian's xurls command
# where the release has one), URLExtract (PyPI urlextract) and linkify-it
# (npm), on the first BENCH_PEER_MB MiB of each input (cut at a line end),
# next to urlx, rg and linkify on the same slice: one more table per input.
# They go into $BENCH_DIR/peers (apt-get download + dpkg -x, pip --target,
# npm --prefix), nothing global; a tool that cannot be installed is
# skipped with a note in the output.
#
# Environment:
#   BENCH_DIR      where inputs and results go (default /tmp/urlx-bench)
#   BENCH_SIZE_MB  size of each input in MiB (default 256)
#   BENCH_RUNS     hyperfine runs per command (default 5, plus 1 warmup)
#   BENCH_INPUTS   inputs to run (default "needle sparse prose dense
#                  mail"; mail is the mbox of ../shared/corpora/mail
#                  when it is there, of corpora/mail otherwise)
#   BENCH_PEERS    slow peers to run (default "xurls urlextract linkify-it";
#                  empty: none)
#   BENCH_PEER_MB  size of the slice the peers run on, MiB (default 4)
#   BENCH_PEER_RUNS hyperfine runs per peer command (default 3; the extra
#                  run that counts URLs and RSS comes first and warms up)
#
# Needs cargo, python3, hyperfine, ripgrep and GNU time; installs the last
# three with apt-get when missing. The inputs are generated once per size
# into $BENCH_DIR/<size>M/ and reused.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
. "$ROOT/benches/common.sh"
BENCH_DIR=${BENCH_DIR:-/tmp/urlx-bench}
BENCH_SIZE_MB=${BENCH_SIZE_MB:-256}
BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_INPUTS=${BENCH_INPUTS:-needle sparse prose dense mail}
BENCH_PEERS=${BENCH_PEERS-xurls urlextract linkify-it}
BENCH_PEER_MB=${BENCH_PEER_MB:-4}
BENCH_PEER_RUNS=${BENCH_PEER_RUNS:-3}
# The URL regex given to `rg -o`: scheme "://" then no space, < > or ".
# It finds no mailto:/news: URLs, keeps trailing punctuation and does
# not join URLs wrapped across lines.
RG_REGEX='[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>"]+'

log() { echo "compare.sh: $*" >&2; }

# --- tools ---------------------------------------------------------------
need_apt hyperfine hyperfine
need_apt rg ripgrep
[ -x /usr/bin/time ] || need_apt /usr/bin/time time

# --- builds --------------------------------------------------------------
log "building urlx (release)"
build_urlx
log "building linkify-urls and memchr-count (release)"
cargo build --release --quiet \
    --manifest-path "$ROOT/benches/linkify-bin/Cargo.toml"
LINKIFY_DIR=${CARGO_TARGET_DIR:-$ROOT/benches/linkify-bin/target}/release
LINKIFY=$LINKIFY_DIR/linkify-urls
MEMCHR=$LINKIFY_DIR/memchr-count
for b in "$URLX" "$LINKIFY" "$MEMCHR"; do
    [ -x "$b" ] || { log "missing binary $b"; exit 1; }
done

# --- slow peers (installed into $BENCH_DIR/peers) ------------------------
PEERS=$BENCH_DIR/peers
PEER_NOTES=()    # printed under the peer tables
PEER_CMDS=()     # name|command-with-FILE-placeholder
PEER_VERSIONS=()
peer_note() { PEER_NOTES+=("$*"); log "$*"; }

# Extract Debian packages into $PEERS/deb/root without installing them.
deb_extract() {
    local dir=$PEERS/deb p deb
    mkdir -p "$dir/root"
    for p in "$@"; do
        [ -f "$dir/root/.$p.done" ] && continue
        deb=$(ls "$dir"/"${p}"_*.deb 2>/dev/null | head -1)
        if [ -z "$deb" ]; then
            (cd "$dir" && apt-get download "$p" >/dev/null 2>&1) || return 1
            deb=$(ls "$dir"/"${p}"_*.deb | head -1)
        fi
        dpkg-deb -x "$deb" "$dir/root" && touch "$dir/root/.$p.done" ||
            return 1
    done
}
APT_UPDATED=
apt_has() {
    apt-cache show "$1" >/dev/null 2>&1 && return 0
    # Package lists may be missing or old on a fresh machine: update once.
    [ -n "$APT_UPDATED" ] && return 1
    APT_UPDATED=1
    apt-get update >/dev/null 2>&1 || true
    apt-cache show "$1" >/dev/null 2>&1
}

setup_xurls() {
    local root=$PEERS/deb/root
    # A Debian release that packages the xurls command (trixie and later).
    if apt_has xurls && deb_extract xurls && [ -x "$root/usr/bin/xurls" ]; then
        PEER_CMDS+=("xurls|$root/usr/bin/xurls FILE")
        PEER_VERSIONS+=("xurls $(dpkg-deb -f "$PEERS"/deb/xurls_*.deb Version) (Debian)")
        return
    fi
    # Bookworm has only the library: build benches/peers/xurls_find.go
    # against it with Debian's Go, offline (GOPROXY=off).
    local gopkg
    apt_has golang-go || true
    gopkg=$(apt-cache depends golang-go 2>/dev/null |
        sed -n 's/^ *Depends: \(golang-1\.[0-9]*-go\)$/\1/p' | head -1)
    if [ -z "$gopkg" ] || ! apt_has golang-mvdan-xurls-dev; then
        peer_note "xurls skipped: Debian has neither the xurls command nor" \
            "golang-mvdan-xurls-dev and golang-go"
        return
    fi
    local gover=${gopkg%-go}; gover=${gover#golang-}
    if ! deb_extract golang-mvdan-xurls-dev "$gopkg" "golang-$gover-src"; then
        peer_note "xurls skipped: apt-get download of golang-mvdan-xurls-dev" \
            "or $gopkg failed"
        return
    fi
    local src=$root/usr/share/gocode/src/mvdan.cc/xurls
    local build=$PEERS/xurls-build bin=$PEERS/bin/xurls_find
    local libver
    libver=$(dpkg-deb -f "$PEERS"/deb/golang-mvdan-xurls-dev_*.deb Version)
    mkdir -p "$build" "$PEERS/bin"
    cp "$ROOT/benches/peers/xurls_find.go" "$build/"
    cat >"$build/go.mod" <<GOMOD
module xurlsfind

go $gover

require mvdan.cc/xurls/v2 v${libver%-*}

replace mvdan.cc/xurls/v2 => $src
GOMOD
    if (cd "$build" && GOROOT=$root/usr/lib/go-$gover GOPATH=$PEERS/gopath \
        GOCACHE=$PEERS/gocache GOPROXY=off GOFLAGS=-mod=mod \
        GOTOOLCHAIN=local GOTELEMETRY=off \
        "$root/usr/lib/go-$gover/bin/go" build -o "$bin" .) >&2; then
        PEER_CMDS+=("xurls|$bin FILE")
        PEER_VERSIONS+=("xurls library $libver (Debian golang-mvdan-xurls-dev, Strict(), built with Go $gover by benches/peers/xurls_find.go)")
    else
        peer_note "xurls skipped: building benches/peers/xurls_find.go failed"
    fi
}

setup_urlextract() {
    local py=$PEERS/py
    if ! PYTHONPATH=$py python3 -c 'import urlextract' 2>/dev/null; then
        log "installing urlextract into $py"
        if ! python3 -m pip install --disable-pip-version-check -q \
            --target "$py" urlextract >&2; then
            peer_note "URLExtract skipped: pip install urlextract failed"
            return
        fi
    fi
    PEER_CMDS+=("URLExtract|env PYTHONPATH=$py python3 $ROOT/benches/peers/urlextract_find.py FILE")
    PEER_VERSIONS+=("URLExtract $(PYTHONPATH=$py python3 -c 'import importlib.metadata as m; print(m.version("urlextract"))') (PyPI, bundled TLD list, no download; Python $(python3 -c 'import platform; print(platform.python_version())'))")
}

setup_linkify_it() {
    local nm=$PEERS/node/node_modules
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        peer_note "linkify-it skipped: node or npm is not installed"
        return
    fi
    if [ ! -f "$nm/linkify-it/package.json" ]; then
        log "installing linkify-it into $PEERS/node"
        if ! npm install --prefix "$PEERS/node" --no-audit --no-fund \
            --silent linkify-it >&2; then
            peer_note "linkify-it skipped: npm install linkify-it failed"
            return
        fi
    fi
    PEER_CMDS+=("linkify-it|env NODE_PATH=$nm node $ROOT/benches/peers/linkify_it_find.js FILE")
    PEER_VERSIONS+=("linkify-it $(node -p "require('$nm/linkify-it/package.json').version") (npm, default options; node $(node --version))")
}

for peer in $BENCH_PEERS; do
    case $peer in
        xurls) setup_xurls ;;
        urlextract) setup_urlextract ;;
        linkify-it) setup_linkify_it ;;
        *) peer_note "unknown peer $peer skipped" ;;
    esac
done

# --- inputs --------------------------------------------------------------
DATA=$BENCH_DIR/${BENCH_SIZE_MB}M
RESULTS=$BENCH_DIR/results-${BENCH_SIZE_MB}M
mkdir -p "$DATA" "$RESULTS"
size=$((BENCH_SIZE_MB * 1024 * 1024))
# input_file NAME: the path of input NAME.
input_file() {
    case $1 in
        mail) echo "$DATA/mail.mbox" ;;
        *) echo "$DATA/$1.txt" ;;
    esac
}
REAL_MAIL=$ROOT/../shared/corpora/mail
for name in $BENCH_INPUTS; do
    f=$(input_file "$name")
    if [ "$name" = mail ]; then
        [ -f "$f" ] && continue
        log "generating $f"
        if [ -d "$REAL_MAIL" ]; then
            python3 "$ROOT/benches/gen_mbox.py" --size "${BENCH_SIZE_MB}M" \
                --real "$REAL_MAIL" --out "$f" >&2
        else
            python3 "$ROOT/benches/gen_mbox.py" --size "${BENCH_SIZE_MB}M" \
                --out "$f" >&2
        fi
        continue
    fi
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
    "pipe; in rounds of one run of each tool, so that drift in the" \
    "machine's speed hits all alike); MB/s = 10^6 bytes/s; RSS = peak, /usr/bin/time -f %M, one" \
    "extra run; URLs = output lines of that run"
echo

# --- runs ----------------------------------------------------------------
# Each entry: name|command (run without a shell: no redirections).
# `urlx -j1` is the reference; the `urlx -jN` entries make the scaling
# table.
NPROC=$(nproc)
tools() {
    local f=$1 name=$2 n
    printf '%s\n' \
        "read|dd if=$f of=/dev/null bs=128k status=none" \
        "memchr-count|$MEMCHR $f" \
        "urlx -j1|$URLX -j1 $f"
    [ "$name" = mail ] &&
        printf '%s\n' "urlx -j1 -a --format text|$URLX -j1 -a --format text $f"
    printf '%s\n' \
        "rg -o|rg -o --no-filename --no-line-number -e '$RG_REGEX' $f" \
        "linkify|$LINKIFY $f"
    # ripgrep memory-maps a single file; on the logs, where reading is
    # most of the work, also as it reads with read(2), as urlx does.
    case $name in
        needle | sparse) printf '%s\n' "rg -o --no-mmap|rg -o --no-mmap --no-filename --no-line-number -e '$RG_REGEX' $f" ;;
    esac
    printf '%s\n' "urlx -j2|$URLX -j2 $f"
    [ "$NPROC" -gt 2 ] && printf '%s\n' "urlx -j$NPROC|$URLX -j$NPROC $f"
    return 0
}

# The slice the slow peers run on: urlx -j1 and the fast tools again,
# then each installed peer (all single-threaded).
peer_tools() {
    local f=$1 entry
    printf '%s\n' \
        "urlx -j1|$URLX -j1 $f" \
        "rg -o|rg -o --no-filename --no-line-number -e '$RG_REGEX' $f" \
        "linkify|$LINKIFY $f"
    for entry in "${PEER_CMDS[@]}"; do
        printf '%s\n' "${entry//FILE/$f}"
    done
}

# bench_table FILE OUT_PREFIX RUNS WARMUP < entries: prints one table.
bench_table() {
    local f=$1 out=$2 runs=$3 warmup=$4
    local json=$out.json extra=$out.extra tool cmd rss lines urls
    local args=()
    : >"$extra"
    while IFS='|' read -r tool cmd; do
        args+=("$tool" "$cmd")
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
    done
    log "hyperfine on $f, $runs rounds"
    hyperfine_rounds "$runs" "$warmup" "$json" --shell=none --output=pipe \
        --ignore-failure --style basic -- "${args[@]}"
    python3 - "$json" "$extra" "$(stat -c %s "$f")" <<'EOF'
import json, statistics, sys
runs = json.load(open(sys.argv[1]))["results"]
extra = {}
for line in open(sys.argv[2]):
    tool, rss, urls = line.rstrip("\n").split("|", 2)
    extra[tool] = (int(rss), urls)
size = int(sys.argv[3])
med = {r["command"]: statistics.median(r["times"]) for r in runs}
base = med["urlx -j1"]
def scaling(t):
    return t.startswith("urlx -j") and t[7:].isdigit() and t != "urlx -j1"
def row(r, ratio):
    t = r["command"]
    m = med[t]
    rss, urls = extra[t]
    print("| %s | %.3f | %.3f–%.3f | %.*f | %.1f | %s | %.2f |" % (
        t, m, min(r["times"]), max(r["times"]),
        0 if size / m / 1e6 >= 10 else 2, size / m / 1e6,
        rss / 1024, urls, ratio(m)))
print("Core for core: one thread each.")
print()
print("| tool | median s | min–max s | MB/s | peak RSS MiB | URLs "
      "| urlx -j1 is x as fast |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in runs:
    if not scaling(r["command"]):
        row(r, lambda m: m / base)
more = [r for r in runs if scaling(r["command"])]
if more:
    print()
    print("Thread scaling of urlx (not a comparison with the tools above).")
    print()
    print("| urlx | median s | min–max s | MB/s | peak RSS MiB | URLs "
          "| speed-up over -j1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in [r for r in runs if r["command"] == "urlx -j1"] + more:
        row(r, lambda m: base / m)
EOF
}

for name in $BENCH_INPUTS; do
    f=$(input_file "$name")
    echo "### $(basename "$f") ($(stat -c %s "$f") bytes)"
    echo
    tools "$f" "$name" | bench_table "$f" "$RESULTS/$name" "$BENCH_RUNS" 1
    echo
done

[ -n "$BENCH_PEERS" ] || exit 0
echo "## Slow peers on the first $BENCH_PEER_MB MiB of each input"
echo
for v in "${PEER_VERSIONS[@]}"; do echo "- $v"; done
for n in "${PEER_NOTES[@]}"; do echo "- $n"; done
echo "- median of $BENCH_PEER_RUNS runs in rounds (hyperfine, no warmup: the extra" \
    "run for RSS and URLs comes first); at this size urlx, rg and linkify" \
    "spend much of their time starting up, so their MB/s here is below" \
    "their rate on the full inputs"
echo
for name in $BENCH_INPUTS; do
    [ "$name" = mail ] && continue
    f=$DATA/$name.txt
    slice=$DATA/$name.first${BENCH_PEER_MB}M.txt
    # The first BENCH_PEER_MB MiB, cut after the last newline in them.
    if [ ! -f "$slice" ] || [ "$slice" -ot "$f" ]; then
        head -c $((BENCH_PEER_MB * 1024 * 1024)) "$f" |
            python3 -c 'import sys; d = sys.stdin.buffer.read(); sys.stdout.buffer.write(d[:d.rfind(b"\n") + 1])' \
            >"$slice"
    fi
    echo "### first $BENCH_PEER_MB MiB of $name.txt ($(stat -c %s "$slice") bytes)"
    echo
    peer_tools "$slice" |
        bench_table "$slice" "$RESULTS/$name.peers" "$BENCH_PEER_RUNS" 0
    echo
done
