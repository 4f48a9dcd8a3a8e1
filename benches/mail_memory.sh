#!/usr/bin/env bash
# mail_memory.sh: peak resident memory and time of urlx on each input of
# gen_hostile_mail.py, for each thread count, against the bound that
# README.md and DESIGN.md state (62 MiB + 3 x batch + 20 x (batch + message limit) = 474 MiB).
# Prints a Markdown table: input, -j, peak MiB, seconds, URLs counted.
#
# Environment: BENCH_DIR (default /tmp/urlx-bench), URLX (default: the
# release build of this checkout), THREADS (default "1 2 8 16").
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/urlx-bench}
DIR=$BENCH_DIR/hostile
THREADS=${THREADS:-1 2 8 16}
if [ -z "${URLX:-}" ]; then
    cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
    URLX=$ROOT/target/release/urlx
fi
[ -f "$DIR/params.eml" ] && [ -f "$DIR/seps.mbox" ] ||
    python3 "$ROOT/benches/gen_hostile_mail.py" --out "$DIR"
echo "| input | -j | peak MiB | seconds | URLs |"
echo "|---|---:|---:|---:|---:|"
for f in dense hits html attrs entities fields qp cp1252 mixed utf16 base64 seps; do
    files+=("$DIR/$f.mbox")
done
for f in huge parts parts1m boundary header params; do files+=("$DIR/$f.eml"); done
for f in "${files[@]}"; do
    for j in $THREADS; do
        /usr/bin/time -f "%M %e" -o "$DIR/time.txt" \
            "$URLX" -c -j"$j" "$f" >"$DIR/count.txt" 2>/dev/null || true
        # (time puts "Command exited with non-zero status 1" first when
        # nothing was found.)
        read -r kib secs < <(tail -n 1 "$DIR/time.txt")
        printf '| %s | %s | %d | %s | %s |\n' "$(basename "$f")" "$j" \
            $((kib / 1024)) "$secs" "$(cat "$DIR/count.txt")"
    done
done
