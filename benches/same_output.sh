#!/usr/bin/env bash
# same_output.sh: check that two builds of urlx print the same bytes on
# the bundled corpus and on ../shared/corpora, across output formats and
# the options that change what is found or how it is printed, on one
# thread and on two.
#
#     bash benches/same_output.sh OLD_BINARY [NEW_BINARY]
#
# NEW_BINARY defaults to target/release/urlx (build it first). Exits 1
# and names every differing run when the outputs differ.
set -uo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: same_output.sh OLD_BINARY [NEW_BINARY]}
new=${2:-target/release/urlx}
dirs=(corpora)
[ -d ../shared/corpora ] && dirs+=(../shared/corpora)
runs=(
    ""
    "--json"
    "--json --abbreviated --emails --domains --refang --invalid"
    "--json --format text"
    "-n --column -b --with-filename"
    "--normalize --ascii"
    "--resolved --unwrap"
    "--warnings"
    "-u --unique-scope message"
    "--count-unique --json"
    "--hosts"
    "-c"
    "--message-id --source header,html-attr"
    "--scheme registered --json"
    "-z --json"
)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
for d in "${dirs[@]}"; do
    for j in 1 2; do
        for r in "${runs[@]}"; do
            # shellcheck disable=SC2086
            "$old" $r -j$j "$d" >"$out/a" 2>"$out/ae"; ea=$?
            # shellcheck disable=SC2086
            "$new" $r -j$j "$d" >"$out/b" 2>"$out/be"; eb=$?
            if ! cmp -s "$out/a" "$out/b" || [ $ea != $eb ]; then
                echo "DIFFERS: $d -j$j $r (exit $ea vs $eb)"
                diff "$out/a" "$out/b" | head -5
                fail=1
            else
                printf '%-22s -j%s %-55s %8d lines\n' "$d" "$j" "${r:-(default)}" "$(wc -l <"$out/a")"
            fi
        done
    done
done
# Standard input, mail detected from the bytes.
for f in corpora/mail/*; do
    [ -f "$f" ] || continue
    if ! cmp -s <("$old" --json - <"$f" 2>&1) <("$new" --json - <"$f" 2>&1); then
        echo "DIFFERS: stdin $f"; fail=1
    fi
done
[ $fail = 0 ] && echo "same output"
exit $fail
