#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ (not committed) from the repository's
# samples: corpora/ (text, logs, news, mail) and tests/data (the RFC 3986
# 5.4 and 4Suite resolution vectors). Run from fuzz/; idempotent.
set -euo pipefail
cd "$(dirname "$0")"
root=..
mkdir -p corpus/extract corpus/uri corpus/resolve corpus/mail

# extract: the first three bytes choose chunk and batch sizes and the
# scheme-less forms (abbreviated, e-mail, refang); whole
# files are kept small so that libFuzzer's max_len stays small.
for f in "$root"/corpora/text/* "$root"/corpora/logs/*.log \
    "$root"/corpora/logs/lnav-*.0 "$root"/corpora/news/*.txt \
    "$root"/corpora/mail/*.eml; do
    head -c 8000 "$f" > "corpus/extract/$(basename "$f")"
done

# mail: the first byte chooses the format (0: auto, 1: mbox, 2: eml,
# 3: news, 4: maildir; 8: attachments; 16: a base URI).
for f in "$root"/corpora/mail/*.eml "$root"/corpora/news/*.txt; do
    { printf '\000'; head -c 16000 "$f"; } > "corpus/mail/$(basename "$f")"
done
{ printf '\001'; head -c 16000 "$root/corpora/mail/kasan-dev-2.mboxrd"; } \
    > corpus/mail/kasan-dev-2.mboxrd
{ printf '\021'; { gzip -dc "$root/corpora/mail/usrp-users-4.mboxrd.gz" ||
    true; } | head -c 16000; } > corpus/mail/usrp-users-4.mboxrd

# uri: one URL (as found by urlx) per file.
cargo run -q --release --manifest-path "$root/Cargo.toml" -- \
    --no-filename --invalid -u "$root/corpora" |
    split -l 1 -a 4 - corpus/uri/u
for f in corpus/uri/u*; do printf '%s' "$(cat "$f")" > "$f"; done

# resolve: "base NUL reference" pairs.
n=0
pair() { printf '%s\000%s' "$1" "$2" > "corpus/resolve/p$n"; n=$((n + 1)); }
while IFS=$'\t' read -r r _; do
    case "$r" in '# '*) continue ;; esac
    pair 'http://a/b/c/d;p?q' "$r"
done < "$root/tests/data/rfc3986-5.4.txt"
while IFS=$'\t' read -r r b; do
    pair "$b" "$r"
done < <(jq -r 'select(.suite == "AbsolutizeTestCases")
    | [.args[0], .args[1]] | @tsv' "$root/tests/data/foursuite_cases.jsonl")
echo "seeded: $(for t in extract mail uri resolve; do
    printf '%s %s  ' "$t" "$(ls corpus/$t | wc -l)"; done)"
