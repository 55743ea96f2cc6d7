#!/bin/bash
# The record of the a-posteriori error estimate's quality (docs/cli.md, Error estimate): bsde study on omp over the five
# tables (data/table*.ini) at the sizes two cores run in minutes, with the default start-up and with --startup exact,
# then scripts/estimate_quality.py on each start-up's CSVs.
#   bash scripts/estimate_record.sh OUTDIR        (BSDE=path/to/bsde to use another binary)
set -euo pipefail
out=${1:?usage: bash scripts/estimate_record.sh OUTDIR}
bsde=${BSDE:-build/bin/bsde}
mkdir -p "$out"
for startup in multistep exact; do
    for table in table4_ex1:32,64,128,256 table5_ex2:32,64,128,256 table8_ex3:32,64,128,256 \
                 table9_ex4:8,16,32 table11_ex5:8,16,32; do
        name=${table%%:*}
        "$bsde" study --config "data/$name.ini" --N "${table#*:}" --backends omp --startup "$startup" --estimate on \
            --out "$out/$name-$startup" > "$out/$name-$startup.txt" 2>&1
    done
    python3 scripts/estimate_quality.py "$out"/*-"$startup"/study.csv > "$out/quality-$startup.txt"
done
grep -A 2 "^cells with" "$out"/quality-*.txt
