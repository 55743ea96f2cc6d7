#!/usr/bin/env bash
# On the GPU host: re-record paper tables through bsde study (serial, omp, cuda; serial and omp leave out a
# case once a solve takes more than MAX_SECONDS) and pack the study folders (tables, CSV, gnuplot scripts)
# into $OUT/TAG.tgz, so that the plots can be drawn where gnuplot is (cd DIR && gnuplot study.gp).
# usage: scripts/device_tables.sh TAG NAME:CONFIG[:EXTRA OPTIONS]...   e.g. table5_ex2:data/table5_ex2.ini
set -uo pipefail
out=${OUT:-out}
bsde=${BSDE:-build/bin/bsde}
max=${MAX_SECONDS:-10}
tag=$1
shift
mkdir -p "$out/$tag"
for spec in "$@"; do
  IFS=: read -r name config extra <<< "$spec"
  # shellcheck disable=SC2086
  "$bsde" study --config "$config" $extra --backends serial,omp,cuda --max-seconds "$max" --out "$out/$tag/$name" \
    > "$out/$tag/$name.txt" 2>&1
  echo "== $name (exit $?)"
  cat "$out/$tag/$name.txt"
done
tar czf "$out/$tag.tgz" -C "$out" "$tag"
