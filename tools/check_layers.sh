#!/usr/bin/env bash
# The include direction of docs/architecture.md ("Code layout"): a file may include its own layer and the ones below,
# never one above. Layers, lowest first:
#   algorithms/core < algorithms/quadrature < algorithms/interpolation < algorithms/scheme < problems
#   < algorithms/sweep < algorithms/backends < src
# Prints each upward include as "FILE: includes TARGET (LAYER above LAYER)" and exits 1 if there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
layers=(algorithms/core algorithms/quadrature algorithms/interpolation algorithms/scheme problems algorithms/sweep
        algorithms/backends src)
rank_of() {  # the layer index of a repository path, or -1 outside every layer
    local i
    for i in "${!layers[@]}"; do [[ $1 == "${layers[$i]}"/* ]] && { echo "$i"; return; }; done
    echo -1
}
upward=0
for file in $(git ls-files "${layers[@]}"); do
    [[ -f $file ]] || continue
    own=$(rank_of "$file")
    while read -r target; do
        resolved=$(realpath -m --relative-to=. "$(dirname "$file")/$target")
        rank=$(rank_of "$resolved")
        if (( rank > own )); then
            echo "$file: includes $resolved (${layers[$rank]} above ${layers[$own]})"
            upward=1
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done
exit $upward
