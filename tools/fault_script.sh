#!/usr/bin/env bash
# Fault script (issue 48): runs bsde under faults and checks what each run leaves. One fault a case, chosen at random
# with random parameters:
#   signal  SIGINT, SIGTERM or SIGHUP at a random moment of a solve (serial, omp), a study (gnuplot included), a bench,
#           to the process or to its process group (gnuplot too, as Ctrl-C sends it)
#   disk    a full disk: the output folder a small tmpfs (unshare -rm, where user namespaces allow it), partly filled
#           by a user's file; where they do not, a file-size limit
#   fsize   a file-size limit (ulimit -f)
#   memory  an address-space limit (ulimit -v)
#   stream  standard input, output or error closed, stdout /dev/full, stdout or stderr a pipe whose reader leaves early
#   swap    while the run goes on: its output folder renamed, replaced by a link to another folder, or removed; the
#           --output link pointed elsewhere; a folder put where an output goes; the --out folder replaced by a user's;
#           then, in half the cases, a signal
# After each case it checks: the exit code is a documented one (0, 2, 3, 4, 5, or the end by the signal it sent); a
# failure's stderr has one 'bsde: error:' line, its last; no *.partial.* file or folder remains; the user's files,
# links and folders around the output are there as they were; every output found is whole (a solve's CSV byte for
# byte as an undisturbed run writes it, the study's and bench's tables with as many lines, a PNG from its signature to
# its IEND chunk) or absent, and present after exit code 0 where nothing moved it.
#
# Usage: tools/fault_script.sh [-n CASES] [-s SEED] [-b BINARY] [-k]
#   -n  the number of cases (200)          -s  the seed of the random choices (the time; printed)
#   -b  the bsde binary (build/bin/bsde)   -k  keep each failing case's folder (its path is printed)
# Prints one line per failure and a summary; exit status 0 when every case passed, 1 otherwise. Needs bash and
# coreutils; unshare and mount (util-linux) for the tmpfs, else the disk cases use ulimit -f.
set -uo pipefail

cases=200 seed=$(date +%s) bsde=build/bin/bsde keep=0
while getopts n:s:b:k option; do
    case $option in
        n) cases=$OPTARG ;;
        s) seed=$OPTARG ;;
        b) bsde=$OPTARG ;;
        k) keep=1 ;;
        *) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 2 ;;
    esac
done
bsde=$(realpath "$bsde")
[[ -x $bsde ]] || { echo "fault_script: no binary $bsde (make NVCC= -j1 all)" >&2; exit 2; }
RANDOM=$seed
work=$(mktemp -d /tmp/bsde_faults.XXXXXX)
kept=()
# in the main shell only: a subshell of a job, killed, may run the trap too
cleanup() { [[ $BASHPID == "$$" && ${#kept[@]} -eq 0 ]] && rm -rf "$work"; }
trap cleanup EXIT

# The commands, OUT standing for the case's output folder; what each writes there.
declare -A command_line outputs
command_line[solve]="solve --problem ex1 --K 3 --N 100 --backend serial --output OUT/y.csv"
command_line[solve_omp]="solve --problem ex1 --K 3 --N 100 --backend omp --output OUT/y.csv"
command_line[solve_warn]="solve --problem ex1 --K 3 --N 100 --backend serial --R 2 --output OUT/y.csv"
command_line[solve_link]="solve --problem ex1 --K 3 --N 100 --backend serial --output OUT/link.csv"
command_line[study]="study --problem ex1 --K 1-2 --N 8,16,32,64,128 --backends serial --out OUT/st"
command_line[bench]="bench --cases ex1:K=2:N=64,ex1:K=3:N=100 --backends serial --out OUT/b"
command_line[coefficients]="coefficients --K 32"
outputs[solve]="y.csv" outputs[solve_omp]="y.csv" outputs[solve_warn]="y.csv" outputs[solve_link]="target.csv"
outputs[study]="st/study.csv st/study.md st/study.gp" outputs[bench]="b/bench.csv b/bench.md" outputs[coefficients]=""
commands=(solve solve_omp solve_warn solve_link study bench coefficients)
declare -A duration_ms  # of an undisturbed run, for the moments of the signals

random_below() { echo $(( (RANDOM * 32768 + RANDOM) % $1 )); }
pick() { local -n list=$1; echo "${list[$(random_below ${#list[@]})]}"; }
seconds() { printf '%d.%03d' $(( $1 / 1000 )) $(( $1 % 1000 )); }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# The user's files, links and folders around the output: OUT/keep.txt, OUT/link.csv -> target.csv (the output of
# solve_link replaces target.csv), and beside OUT user.txt, user_link -> user.txt, dangling -> nowhere, other/keep.txt.
make_user_files() {  # CASE OUT
    mkdir -p "$2" "$1/other"
    echo keep >"$2/keep.txt"
    echo target >"$2/target.csv"
    ln -s target.csv "$2/link.csv"
    echo user >"$1/user.txt"
    ln -s user.txt "$1/user_link"
    ln -s nowhere "$1/dangling"
    echo other >"$1/other/keep.txt"
}

# The undisturbed runs: each command's outputs and duration, under $work/ref.
make_references() {
    local name out start
    for name in "${commands[@]}"; do
        out=$work/ref/$name/out
        make_user_files "$work/ref/$name" "$out"
        start=$(now_ms)
        read -ra args <<<"${command_line[$name]//OUT/$out}"
        if ! "$bsde" "${args[@]}" >"$work/ref/$name/stdout" 2>"$work/ref/$name/stderr"; then
            echo "fault_script: the undisturbed run of $name failed:" >&2
            cat "$work/ref/$name/stderr" >&2
            exit 2
        fi
        duration_ms[$name]=$(( $(now_ms) - start ))
    done
}

failures=0
declare -A class_count exit_count
problems=()
problem() { problems+=("$*"); }

# Whether FILE is whole: a CSV of a solve byte for byte the reference, a table as many lines as the reference's and
# ending with a newline, a PNG from its signature to a final IEND chunk.
check_whole() {  # FILE COMMAND
    local file=$1 name=$2 base reference
    base=$(basename "$file")
    case $base in
        y.csv | target.csv)
            [[ $base == target.csv && $(cat "$file") == target ]] && return  # the user's, not replaced
            cmp -s "$file" "$work/ref/$name/out/${outputs[$name]%% *}" || problem "$file is not the whole CSV" ;;
        *.png)
            [[ $(head -c 8 "$file" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a &&
               $(tail -c 12 "$file" | od -An -tx1 | tr -d ' \n') == 0000000049454e44ae426082 ]] ||
                problem "$file is not a complete PNG" ;;
        study.* | bench.*)
            reference=$(find "$work/ref/$name/out" -name "$base" -print -quit)
            [[ -n $reference && $(wc -l <"$file") == $(wc -l <"$reference") && $(tail -c 1 "$file" | od -An -tx1) == \
               $(tail -c 1 "$reference" | od -An -tx1) ]] || problem "$file is cut short (or longer)" ;;
    esac
}

# The checks after a case. ALLOWED: the exit codes that may end it; ERR_KEPT: 1 when stderr went to CASE/stderr;
# OUT_AT: where the output folder is now ("" when the fault removed it); MOVED: 1 when a fault moved or replaced
# something the run writes into (outputs may then be missing after exit code 0).
check_case() {  # CASE COMMAND STATUS ALLOWED ERR_KEPT OUT_AT MOVED
    local c=$1 name=$2 status=$3 allowed=$4 err_kept=$5 out_at=$6 moved=$7 file output
    [[ " $allowed " == *" $status "* ]] || problem "exit code $status, not one of $allowed"
    if [[ $err_kept == 1 && $status =~ ^[2-5]$ ]]; then
        [[ $(grep -c '^bsde: error: ' "$c/stderr") == 1 && $(tail -n 1 "$c/stderr") == "bsde: error: "* ]] ||
            problem "exit code $status without one last 'bsde: error:' line: $(tr '\n' '|' <"$c/stderr" | head -c 300)"
    fi
    [[ $status == 137 ]] && problem "killed (SIGKILL: a hang or the time limit)"
    while IFS= read -r file; do problem "left $file"; done < <(find "$c" -name '*.partial.*')
    [[ $(cat "$c/user.txt" 2>/dev/null) == user && $(readlink "$c/user_link") == user.txt &&
       $(readlink "$c/dangling") == nowhere && $(cat "$c/other/keep.txt" 2>/dev/null) == other ]] ||
        problem "a user's file or link beside the output changed"
    if [[ -n $out_at ]]; then
        [[ $(cat "$c/$out_at/keep.txt" 2>/dev/null) == keep ]] || problem "the user's $out_at/keep.txt changed"
        [[ -L $c/$out_at/link.csv ]] || problem "the user's link $out_at/link.csv was removed"
    fi
    while IFS= read -r file; do check_whole "$file" "$name"; done < <(
        find "$c" \( -name y.csv -o -name target.csv -o -name x.csv -o -name 'study.*' -o -name 'bench.*' \
            -o -name '*.png' \) -type f)
    if [[ $status == 0 && $moved == 0 && -n $out_at ]]; then
        for output in ${outputs[$name]}; do
            [[ -f $c/$out_at/$output ]] || problem "exit code 0 but no $out_at/$output"
        done
        [[ $name == solve_link && $(cat "$c/$out_at/target.csv") == target ]] && problem "exit code 0 but no output"
    fi
}

# Runs the command in the background with stdout and stderr in CASE; sets pid.
launch() {  # CASE ARGS...
    local c=$1
    shift
    set -m  # job control: the run takes SIGINT as a foreground one does (bash makes a background job ignore it)
    "$@" </dev/null >"$c/stdout" 2>"$c/stderr" &
    pid=$!
    set +m  # and no notices of the jobs' ends
}

finish() {  # waits for pid, killing it after 600 s (a hang), and sets status
    local polls=0
    {  # bash's notice of a job's end by a signal ("Hangup") on /dev/null
        while kill -0 "$pid" && (( polls < 12000 )); do sleep 0.05; polls=$(( polls + 1 )); done
        kill -KILL "$pid"
        wait "$pid"
        status=$?
    } 2>/dev/null
}

signals=(INT TERM HUP)
random_moment() { seconds "$(random_below $(( duration_ms[$1] * 13 / 10 + 1 )))"; }

# Each fault: CASE COMMAND ARGS...; sets detail (what was done) and runs check_case.
fault_signal() {
    local c=$1 name=$2 sig moment target
    shift 2
    local -a targets=(process group)  # group: the run's process group, gnuplot too, as Ctrl-C sends it
    sig=$(pick signals) moment=$(random_moment "$name") target=$(pick targets)
    detail="SIG$sig to the $target after $moment s"
    launch "$c" "$bsde" "$@"
    sleep "$moment"
    if [[ $target == group ]]; then kill -s "$sig" -- "-$pid" 2>/dev/null; else kill -s "$sig" "$pid" 2>/dev/null; fi
    finish
    check_case "$c" "$name" "$status" "0 $(( 128 + $(kill -l "$sig") ))" 1 out 0
}

fault_fsize() {
    local c=$1 name=$2 blocks
    shift 2
    blocks=$(( 1 + $(random_below 600) ))
    detail="ulimit -f $blocks"
    { ( ulimit -f "$blocks" && exec "$bsde" "$@" ) </dev/null >"$c/stdout" 2>"$c/stderr"; } 2>/dev/null  # no notice
    status=$?
    check_case "$c" "$name" "$status" "0 2" 1 out 0
}

# A tmpfs of SIZE KiB on CASE/out in a mount namespace of its own, the user's files made there and FILLER KiB of a
# user's file, the run, then a copy of what the disk holds in CASE/snapshot (the tmpfs goes with the namespace).
fault_disk() {
    local c=$1 name=$2 size filler
    shift 2
    if [[ $tmpfs == 0 ]]; then fault_fsize "$c" "$name" "$@"; return; fi
    size=$(( 8 + $(random_below 700) )) filler=$(random_below 700)
    detail="tmpfs of $size KiB, $filler KiB of it taken"
    unshare -rm bash -c '
        c=$1 size=$2 filler=$3 stdout=$1/stdout
        shift 3
        mount -t tmpfs -o "size=${size}k" tmpfs "$c/out" || exit 99
        echo keep >"$c/out/keep.txt"; echo target >"$c/out/target.csv"; ln -s target.csv "$c/out/link.csv"
        head -c $(( filler * 1024 )) /dev/zero >"$c/out/filler" 2>/dev/null
        [[ $2 == coefficients ]] && stdout=$c/out/stdout  # stdout on the full disk
        "$@" </dev/null >"$stdout" 2>"$c/stderr"
        status=$?
        mkdir "$c/snapshot" && cp -a "$c/out/." "$c/snapshot/"
        exit $status' _ "$c" "$size" "$filler" "$bsde" "$@"
    status=$?
    check_case "$c" "$name" "$status" "0 2" 1 snapshot 0
}

fault_memory() {
    local c=$1 name=$2 kib
    shift 2
    kib=$(( 10000 + $(random_below 300000) ))  # from where the loader maps the libraries (docs/cli.md)
    detail="ulimit -v $kib"
    { ( ulimit -v "$kib" && exec "$bsde" "$@" ) </dev/null >"$c/stdout" 2>"$c/stderr"; } 2>/dev/null
    status=$?
    check_case "$c" "$name" "$status" "0 2 4" 1 out 0
}

streams=(closed_in closed_out closed_err closed_all dev_full broken_out broken_err)
fault_stream() {
    local c=$1 name=$2 variant bytes allowed=0 err_kept=1
    shift 2
    variant=$(pick streams) bytes=$(random_below 3000)
    detail=$variant
    case $variant in
        closed_in) "$bsde" "$@" <&- >"$c/stdout" 2>"$c/stderr"; status=$? ;;
        closed_out) "$bsde" "$@" </dev/null >&- 2>"$c/stderr"; status=$? ;;
        closed_err) err_kept=0; "$bsde" "$@" </dev/null >"$c/stdout" 2>&-; status=$? ;;
        closed_all) err_kept=0; "$bsde" "$@" <&- >&- 2>&-; status=$? ;;
        dev_full) allowed=2; "$bsde" "$@" </dev/null >/dev/full 2>"$c/stderr"; status=$? ;;
        broken_out) detail="$variant after $bytes bytes" allowed="0 2"
                    "$bsde" "$@" </dev/null 2>"$c/stderr" | head -c "$bytes" >/dev/null
                    status=${PIPESTATUS[0]} ;;
        broken_err) detail="$variant after $bytes bytes" err_kept=0
                    "$bsde" "$@" </dev/null 2>&1 >"$c/stdout" | head -c "$bytes" >/dev/null
                    status=${PIPESTATUS[0]} ;;
    esac
    check_case "$c" "$name" "$status" "$allowed" "$err_kept" out 0
}

# What a swap does to the paths the run writes through; sets out_at and adds to `after` the checks of what it made.
swap_paths() {  # CASE COMMAND ACTION
    local c=$1 name=$2 action=$3 folder=${outputs[$2]%%/*}
    case $action in
        rename_out) mv "$c/out" "$c/out_moved"; out_at=out_moved ;;
        link_out) mv "$c/out" "$c/out_moved"; ln -s other "$c/out"; out_at=out_moved
                  after+=("[[ \$(ls -A '$c/other') == keep.txt ]] || problem 'files written into other/ through the new link'") ;;
        remove_out) rm -rf "$c/out"; out_at= ;;
        retarget) ln -sfn ../other/x.csv "$c/out/link.csv"
                  after+=("[[ ! -e '$c/other/x.csv' ]] || problem 'the new target of the link was written'")
                  after+=("[[ \$(readlink '$c/out/link.csv') == ../other/x.csv ]] || problem 'the retargeted link changed'") ;;
        block_target) local blocked=$c/out/${outputs[$name]%% *}
                      if mkdir "$blocked" 2>/dev/null && echo user >"$blocked/user.txt"; then
                          after+=("[[ \$(cat '$blocked/user.txt' 2>/dev/null) == user ]] || problem 'the user folder $blocked was removed'")
                      fi ;;
        replace_out_folder) mv "$c/out/$folder" "$c/out/${folder}_moved" 2>/dev/null
                            if mkdir "$c/out/$folder" && echo user >"$c/out/$folder/user.txt"; then
                                after+=("[[ \$(cat '$c/out/$folder/user.txt' 2>/dev/null) == user ]] || problem 'the user folder out/$folder was removed'")
                            fi ;;
    esac
}

fault_swap() {
    local c=$1 name=$2 action moment sig= allowed="0 2" check
    shift 2
    local -a actions=(rename_out link_out remove_out)
    case $name in
        solve_link) actions+=(retarget) ;;
        study | bench) actions+=(replace_out_folder block_target) ;;
        *) actions+=(block_target) ;;
    esac
    action=$(pick actions) moment=$(random_moment "$name")
    detail="$action after $moment s"
    after=() out_at=out
    launch "$c" "$bsde" "$@"
    sleep "$moment"
    swap_paths "$c" "$name" "$action"
    if (( RANDOM % 2 )); then
        sig=$(pick signals) moment=$(random_moment "$name")
        detail+=", SIG$sig $moment s later"
        sleep "$moment"
        kill -s "$sig" "$pid" 2>/dev/null
        allowed+=" $(( 128 + $(kill -l "$sig") ))"
    fi
    finish
    check_case "$c" "$name" "$status" "$allowed" 1 "$out_at" 1
    for check in "${after[@]}"; do eval "$check"; done
}

faults=(signal disk fsize memory stream swap)
tmpfs=0
mkdir -p "$work/probe"
unshare -rm bash -c "mount -t tmpfs -o size=16k tmpfs '$work/probe'" 2>/dev/null && tmpfs=1
echo "fault_script: $cases cases, seed $seed, $bsde; full disk by $( ((tmpfs)) && echo 'a tmpfs' || echo 'ulimit -f')"
make_references

for (( i = 1; i <= cases; ++i )); do
    fault=$(pick faults) name=$(pick commands)
    [[ $fault == swap && $name == coefficients ]] && name=solve
    c=$work/case_$i
    make_user_files "$c" "$c/out"
    read -ra args <<<"${command_line[$name]//OUT/$c/out}"
    problems=() detail=
    "fault_$fault" "$c" "$name" "${args[@]}"
    class_count[$fault]=$(( ${class_count[$fault]:-0} + 1 ))
    exit_count[$status]=$(( ${exit_count[$status]:-0} + 1 ))
    if (( ${#problems[@]} )); then
        failures=$(( failures + 1 ))
        for p in "${problems[@]}"; do echo "FAIL case $i [$fault: $detail] bsde ${args[*]}: $p"; done
        if (( keep )); then kept+=("$c"); echo "  kept: $c"; else rm -rf "$c"; fi
    else
        rm -rf "$c"
    fi
done

summary="fault_script: $cases cases ("
for fault in "${faults[@]}"; do summary+="$fault ${class_count[$fault]:-0}, "; done
summary="${summary%, }); exit codes:"
for code in $(printf '%s\n' "${!exit_count[@]}" | sort -n); do summary+=" $code x${exit_count[$code]}"; done
echo "$summary; $failures failed"
(( failures == 0 ))
