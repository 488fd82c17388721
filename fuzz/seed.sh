#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds from the repository's API crates (the fixtures and the
# bundled operator): their source files for `source`, their attributes' arguments for
# `attributes`. `mutated_fixtures` and `schema` build their inputs from any bytes: no seed.
set -euo pipefail
cd "$(dirname "$0")/.."
sources=$(find fixtures/*/src fixtures/webhook/cases/*/src operator/src -name '*.rs')
mkdir -p fuzz/corpus/source fuzz/corpus/attributes fuzz/corpus/mutated_fixtures fuzz/corpus/schema
for f in $sources; do
    cp "$f" "fuzz/corpus/source/$(echo "$f" | tr / _)"
done
# One seed per single-line attribute: the text between `#[name(` and the last `)]`.
grep -ohE '#\[(kube_marker|rbac|webhook|webhook_configuration|serde)\(.*\)\]' $sources |
    sed -E 's/^#\[[a-z_]+\((.*)\)\]$/\1/' | sort -u |
    while IFS= read -r args; do
        printf '%s' "$args" > "fuzz/corpus/attributes/$(printf '%s' "$args" | sha1sum | cut -c1-16)"
    done
echo "seeds: $(ls fuzz/corpus/source | wc -l) sources, $(ls fuzz/corpus/attributes | wc -l) attributes"
