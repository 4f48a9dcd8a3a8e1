#!/usr/bin/env bash
# hadoop_streaming_sim.sh: Hadoop Streaming, simulated on one machine
# without Hadoop, with urlx as the mapper.
#
#   map      the input is cut into N line-aligned splits (as
#            TextInputFormat cuts a file: each split ends at a newline),
#            and `urlx --json --format text -` runs on each split as its
#            own process, in parallel, standard input to standard output.
#   shuffle  each mapper's JSON Lines become `host<TAB>json` records
#            (the key before the first tab, as Streaming keys them), sorted
#            by key (LC_ALL=C sort, Hadoop's byte order).
#   reduce   a reducer reads the sorted records and counts URLs per host.
#
# It then checks the per-host counts against a single `urlx --json` run
# over the whole file. Splits are line-aligned, so the only URLs that can
# differ are those whose text (or whose <...> wrapper) crosses a split
# boundary: a URL wrapped across lines. The check leaves out the hits on
# the lines next to each cut (and every line of a whole-file hit that
# crosses one) on both sides, requires the rest to be equal host by host,
# and prints what was left out.
#
# Usage: scale/hadoop_streaming_sim.sh [-n SPLITS] [-j PARALLEL] [FILE]
#   FILE      plain text (default: corpora/text/* concatenated)
#   SPLITS    number of splits (default 4)
#   PARALLEL  mappers run at once (default: nproc)
# Environment: URLX (the binary; default target/release/urlx, built with
# cargo if missing), WORK (a directory for the splits; default a temporary
# one, removed at the end). Needs GNU coreutils (split -n l/N), jq and
# python3. Exit status 0 when the counts agree.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
N=4
P=$(nproc)
while getopts n:j: opt; do
    case $opt in
        n) N=$OPTARG ;;
        j) P=$OPTARG ;;
        *) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

log() { echo "hadoop_streaming_sim: $*" >&2; }

URLX=${URLX:-${CARGO_TARGET_DIR:-$ROOT/target}/release/urlx}
if [ ! -x "$URLX" ]; then
    log "building $URLX"
    cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" --bin urlx
fi
for t in jq python3 split; do
    command -v "$t" >/dev/null || { log "needs $t"; exit 2; }
done

if [ -n "${WORK:-}" ]; then
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi

if [ $# -ge 1 ]; then
    INPUT=$1
else
    INPUT=$WORK/input.txt
    for f in "$ROOT"/corpora/text/*; do
        cat "$f"
        [ -z "$(tail -c1 "$f")" ] || echo
    done >"$INPUT"
fi
log "input $INPUT ($(stat -c %s "$INPUT") bytes), $N splits, $P at once"

# --- map ---------------------------------------------------------------
# The mapper, as it would be given to Hadoop Streaming:
#   -mapper "sh -c 'urlx --json --format text -; [ \$? -le 1 ]'"
# (urlx exits 1 when a split has no URL; Streaming fails a task on any
# non-zero exit.) Its output keyed by host for the reducer below:
#   ... | jq -r '[.host // "-", tojson] | @tsv'
rm -rf "$WORK/splits" "$WORK/map"
mkdir -p "$WORK/splits" "$WORK/map"
split -n "l/$N" -d -a 4 "$INPUT" "$WORK/splits/part-"
mapper() {
    local s=$1 out
    out=$WORK/map/$(basename "$s")
    "$URLX" --json --format text - <"$s" >"$out.json" || [ $? -le 1 ] || return 1
    jq -r '[.host // "-", tojson] | @tsv' <"$out.json" >"$out.kv"
}
export -f mapper
export URLX WORK
start=$(date +%s.%N)
ls "$WORK"/splits/part-* | xargs -P "$P" -I{} bash -c 'mapper "$1"' _ {}
map_done=$(date +%s.%N)

# --- shuffle and reduce --------------------------------------------------
# The reducer sees its keys in sorted order and counts runs of one key,
# as `-reducer` would with Streaming (one reducer here; with R reducers
# Hadoop's HashPartitioner sends each host to one of them).
cat "$WORK"/map/part-*.kv | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -s |
    python3 -c '
import sys
key, n = None, 0
for line in sys.stdin:
    k = line.split("\t", 1)[0]
    if k != key:
        if key is not None:
            print(f"{key}\t{n}")
        key, n = k, 0
    n += 1
if key is not None:
    print(f"{key}\t{n}")
' >"$WORK/reduced.tsv"
end=$(date +%s.%N)
log "map $(python3 -c "print(round($map_done - $start, 3))") s," \
    "shuffle+reduce $(python3 -c "print(round($end - $map_done, 3))") s," \
    "$(wc -l <"$WORK/reduced.tsv") hosts"

# --- check against one run -----------------------------------------------
"$URLX" --json --format text - <"$INPUT" >"$WORK/whole.json" || [ $? -le 1 ]
python3 - "$INPUT" "$WORK" <<'EOF'
import collections, glob, json, os, sys

data = open(sys.argv[1], "rb").read()
work = sys.argv[2]
parts = sorted(glob.glob(os.path.join(work, "splits", "part-*")))
cuts, at = [], 0
for p in parts:
    cuts.append(at)
    at += os.path.getsize(p)
assert at == len(data)
inner = cuts[1:]
line_of = lambda off: data.count(b"\n", 0, off) + 1

whole = [json.loads(l) for l in open(os.path.join(work, "whole.json"))]
maps = []
for p, cut in zip(parts, cuts):
    line0 = data.count(b"\n", 0, cut)
    for l in open(os.path.join(work, "map", os.path.basename(p) + ".json")):
        h = json.loads(l)
        h["start"] += cut
        h["end"] += cut
        h["line"] += line0
        maps.append(h)

near = set()
for c in inner:
    near |= {line_of(c) - 1, line_of(c)}
crossing = [h for h in whole if any(h["start"] < c < h["end"] for c in inner)]
for h in crossing:
    near |= set(range(h["line"], line_of(h["end"]) + 1))

reduced = {}
for l in open(os.path.join(work, "reduced.tsv")):
    k, n = l.rstrip("\n").split("\t")
    reduced[k] = int(n)
host = lambda h: h["host"] or "-"
whole_count = collections.Counter(host(h) for h in whole)
map_count = collections.Counter(host(h) for h in maps)
assert map_count == collections.Counter(reduced), "reducer miscounted"

away = lambda h: h["line"] not in near
want = collections.Counter(host(h) for h in whole if away(h))
got = collections.Counter(host(h) for h in maps if away(h))
print(f"whole run: {len(whole)} URLs, {len(whole_count)} hosts")
print(f"splits:    {len(maps)} URLs, {len(reduced)} hosts (reducer output)")
print(f"cuts at {inner}; {len(crossing)} URL(s) of the whole run cross a cut")
for h in whole:
    if not away(h):
        print(f"  near a cut, whole run: line {h['line']}: {h['url']}")
for h in maps:
    if not away(h):
        print(f"  near a cut, splits:    line {h['line']}: {h['url']}")
if got != want:
    print("MISMATCH away from the cuts:")
    for k in sorted(set(got) | set(want)):
        if got[k] != want[k]:
            print(f"  {k}: splits {got[k]}, whole {want[k]}")
    sys.exit(1)
print(f"per-host counts agree on the {sum(want.values())} URLs away from the cuts")
EOF
