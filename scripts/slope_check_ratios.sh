#!/usr/bin/env bash
# The z check's ratio max |z - dy/dw| / max |dy/dw| (src/result_checks.h) on runs of each problem at its defaults, K and
# N varied, with the y_0 and z_0 errors beside it: the measurements behind slope_check_limit.
# usage: scripts/slope_check_ratios.sh "PROBLEMS" "KS" "NS" [bsde solve options...]; one line a run, "refused" where
# bsde solve refuses the settings (exit 2), "timeout" past $LIMIT seconds (default 60).
set -u
bsde=${BSDE:-build/bin/bsde}
problems=$1 Ks=$2 Ns=$3
shift 3
for p in $problems; do
  for K in $Ks; do
    for N in $Ns; do
      report=$(timeout "${LIMIT:-60}" "$bsde" solve --problem "$p" --K "$K" --N "$N" --estimate off "$@" 2>&1)
      code=$?
      case $code in
        0 | 3) ratio=$(sed -n 's/^z check *|[^<]*<= \([^ ]*\) of.*/\1/p' <<< "$report")
               errors=$(awk '/^y_0 |^z_0/ {printf " %s %s", $1, $NF}' <<< "$report")
               warned=$(grep -c 'bsde: warning: z' <<< "$report")
               echo "$p K=$K N=$N ratio $ratio errors$errors exit $code z-warning $warned" ;;
        124) echo "$p K=$K N=$N timeout" ;;
        *) echo "$p K=$K N=$N refused (exit $code)" ;;
      esac
    done
  done
done
