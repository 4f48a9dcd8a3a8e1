#!/usr/bin/env bash
# The accuracy harness on all of the research corpora in ../shared/corpora:
# mail (the SpamAssassin public corpus tarballs unpacked into a temporary
# directory), news, text and logs. The peer projects' test suites in
# peer-tests/ are checked by tests/peer_markup.rs, tests/peer_extractors.rs
# and tests/whatwg_url.rs instead: they are test vectors, not text.
#
#   bash tests/accuracy/shared_corpora.sh [--show RULE|all] [SHARED]
#
# Prints the figures per rule and every unexplained difference; exits 1
# when there is one.
set -euo pipefail
cd "$(dirname "$0")/../.."
args=()
while [ $# -gt 0 ]; do
    case "$1" in
    --show)
        args+=("$1" "$2")
        shift 2
        ;;
    *) break ;;
    esac
done
shared=${1:-../shared/corpora}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$shared" -name '*.tar.gz' | sort | while read -r t; do
    dir="$tmp/$(basename "$t" .tar.gz)"
    mkdir -p "$dir"
    tar xzf "$t" -C "$dir"
done
cargo build --quiet --release --example accuracy
target/release/examples/accuracy "${args[@]}" \
    "$shared"/mail "$shared"/news "$shared"/text "$shared"/logs "$tmp"
