#!/usr/bin/env bash
# On the GPU host: the paper's five tables on cuda with the default start-up and with --startup exact (each row with
# its a-posteriori error estimate), and the start-up's share of the two timed solves (ex2 K = 6, N = 1024; ex5 K = 6,
# N = 64: the sweep with the default start-up against the exact one's, which sets its layers in no time), and
# exchange's table and solve again with --startup multistep. Packs the study folders
# into $OUT/startup_tables.tgz; scripts/startup_table.py turns them into docs/results/startup.md.
# usage: scripts/record_startup_tables.sh
set -uo pipefail
out=${OUT:-out}
bsde=${BSDE:-build/bin/bsde}
dir=$out/startup_tables
mkdir -p "$dir"
scripts/device_info.sh "$bsde" > "$dir/device.txt"
for table in table4_ex1 table5_ex2 table8_ex3 table9_ex4 table11_ex5; do
  for startup in default exact; do
    options=()
    [ "$startup" = exact ] && options=(--startup exact)
    "$bsde" study --config "data/$table.ini" "${options[@]}" --backends cuda --out "$dir/${table}_$startup" \
      > "$dir/${table}_$startup.txt" 2>&1
    echo "== $table $startup (exit $?)"
  done
done
# exchange with the multistep start-up (the scheme on fine steps), which its default replaces
"$bsde" study --config data/table11_ex5.ini --startup multistep --backends cuda --out "$dir/table11_ex5_multistep" \
  > "$dir/table11_ex5_multistep.txt" 2>&1
echo "== table11_ex5 multistep (exit $?)"
for run in "ex2 --K 6 --N 1024,default" "ex2 --K 6 --N 1024,exact" "ex5 --K 6 --N 64,default" \
           "ex5 --K 6 --N 64,exact" "ex5 --K 6 --N 64,multistep"; do
  case_args=${run%,*} startup=${run#*,}
  options=()
  [ "$startup" != default ] && options=(--startup "$startup")
  for repeat in 1 2 3; do
    # shellcheck disable=SC2086
    "$bsde" solve --problem $case_args --backend cuda "${options[@]}" --estimate off 2>&1 |
      awk -v c="$case_args" -v s="$startup" '/^sweep/ {print c "," s "," $2}'
  done
done | tee "$dir/startup_share.csv"
tar czf "$out/startup_tables.tgz" -C "$out" startup_tables
