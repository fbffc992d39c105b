#!/bin/bash
# MPI_Pcontrol: 0 stops, 1 resumes, 2 resets, 3 writes each rank's file; called before MPI_Init
# too; MICA_PROF_START=off starts with collection stopped. On every MPI installed.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=2
for f in $(flavors); do
    lib_of "$f" >/dev/null
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "pc-$f" "$HERE/pcontrol.c"
    rm -rf "a-$f" "b-$f"
    run_logged "run-$f" $(run_of "$f" $np) "$PROF" --dir "a-$f" "./pc-$f"
    check pcontrol "$(report "a-$f")" $np || fail "$f: MPI_Pcontrol"
    for r in 0 1; do
        ls a-$f/mica-prof.*.rank$r.json >/dev/null 2>&1 || fail "$f: no MPI_Pcontrol(3) file of rank $r"
        python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['reason']=='MPI_Pcontrol(3)', d['reason']" \
            a-$f/mica-prof.*.rank$r.json || fail "$f: MPI_Pcontrol(3) file"
    done
    run_logged "off-$f" env MICA_PROF_START=off $(run_of "$f" $np) "$PROF" --dir "b-$f" "./pc-$f" noinitial
    check pcontrol "$(report "b-$f")" $np || fail "$f: MICA_PROF_START=off"
done
