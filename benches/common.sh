# common.sh: sourced by the benchmark scripts (after they set ROOT):
# installs the tools they need, builds urlx, and runs hyperfine in
# rounds, one run of every command per round, so that the commands
# compared are measured at the same moments.
#
# hyperfine alone runs all the runs of one command, then all of the next.
# On the shared machines urlx is measured on, speed drifts by 10 to 20%
# over minutes, and a ratio measured that way can be off by as much.
#
# need_apt COMMAND PACKAGE
#   Installs PACKAGE with apt-get (updating the lists if that fails)
#   unless COMMAND is already there.
need_apt() {
    command -v "$1" >/dev/null 2>&1 && return 0
    echo "$(basename "$0"): installing $2" >&2
    apt-get install -y "$2" >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y "$2" >/dev/null; }
}

# build_urlx
#   Builds the urlx binary (release) and sets URLX to its path.
build_urlx() {
    cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" \
        --bin urlx
    URLX=${CARGO_TARGET_DIR:-$ROOT/target}/release/urlx
}

# hyperfine_rounds ROUNDS WARMUP JSON [hyperfine options] -- NAME CMD [NAME CMD ...]
#   Runs ROUNDS rounds of `hyperfine --runs 1` over the commands, the
#   first round after WARMUP warm-up runs of each; the order of the
#   commands turns by one each round. Writes to JSON what hyperfine's
#   --export-json would hold for ROUNDS runs ({"results": [{"command":
#   NAME, "times": [...], "exit_codes": [...]}]}), in the order given.
hyperfine_rounds() {
    local rounds=$1 warmup=$2 json=$3
    shift 3
    local opts=()
    while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
        opts+=("$1")
        shift
    done
    shift # the --
    local names=() cmds=()
    while [ "$#" -gt 0 ]; do
        names+=("$1")
        cmds+=("$2")
        shift 2
    done
    local n=${#names[@]} r i k w parts=()
    for ((r = 0; r < rounds; r++)); do
        local args=()
        for ((i = 0; i < n; i++)); do
            k=$(((i + r) % n))
            args+=(-n "${names[$k]}" "${cmds[$k]}")
        done
        w=0
        [ "$r" -eq 0 ] && w=$warmup
        hyperfine --warmup "$w" --runs 1 "${opts[@]}" \
            --export-json "$json.round$r" "${args[@]}" >/dev/null
        parts+=("$json.round$r")
    done
    python3 - "$json" "${names[@]}" -- "${parts[@]}" <<'EOF'
import json, sys
out = sys.argv[1]
sep = sys.argv.index("--")
names, parts = sys.argv[2:sep], sys.argv[sep + 1:]
res = {n: {"command": n, "times": [], "exit_codes": []} for n in names}
for p in parts:
    for r in json.load(open(p))["results"]:
        res[r["command"]]["times"] += r["times"]
        res[r["command"]]["exit_codes"] += r.get("exit_codes", [])
json.dump({"results": [res[n] for n in names]}, open(out, "w"), indent=1)
EOF
    rm -f "${parts[@]}"
}
