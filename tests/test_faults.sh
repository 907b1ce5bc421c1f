#!/bin/sh
# test_faults.sh: outputs that survive faults (TAP). Every write of every output of a sweep,
# a task, `vxc metrics --vtk`, `vxc import` and vxc-mujoco fails in turn (ENOSPC on the k-th
# write, k = 1..N, through the writer's test hook VXC_TEST_FAIL_WRITE, tools/outfile.h);
# sweeps and tasks are killed (SIGKILL) at random points and resumed or rerun; two runs
# share one folder; a resume meets edited inputs and damaged rows; failed writes to
# standard output. The invariants: no exit 0 after a failure, the file named; no finished
# row lost or wrong; no status left from another run; a previous file intact.
set -u
. "$(dirname "$0")/tap.sh"
tools=$(dirname "$vxc")
seed=${VXC_FAULT_SEED:-$$}
echo "# seed $seed (VXC_FAULT_SEED)"

echo "1..42"

cp "$data/ball.vxm" "$data/table.vxm" "$tmp/"
cat >"$tmp/drop.vxt" <<EOT
(task drop (gravity 0 0 -9.81) (duration 0.12) (record (every 0.01))
  (body table (model "table.vxm") (fixed) (pose 0 0 0))
  (body ball (model "ball.vxm") (free (mass 2) (inertia 0.008 0.008 0.008) (com 0 0 0))
    (pose 0 0 0.15))
  (contact table ball (voxel 1e-3)))
EOT
cat >"$tmp/drop.vxs" <<EOT
(sweep drop (task "drop.vxt")
  (vary (body ball pose z 0.11 0.15 3))
  (outputs peak_fn first_contact impacts))
EOT
# slower cases (the octree, no closed form): a sweep and a task long enough to be killed
sed 's/(duration 0.12)/(duration 0.35)/; s/(voxel 1e-3)/(voxel 1e-3) (closed-form off)/' \
  "$tmp/drop.vxt" >"$tmp/slow.vxt"
cat >"$tmp/slow.vxs" <<EOT
(sweep slow (task "slow.vxt")
  (vary (body ball pose z 0.11 0.16 8))
  (outputs peak_fn first_contact impacts))
EOT
cd "$tmp" || exit 1
"$vxc" sweep drop.vxs --out ref >/dev/null 2>&1
"$vxc" sweep slow.vxs --out slowref --jobs 2 >/dev/null 2>&1
"$vxc" task drop.vxt --out tref >/dev/null 2>&1
"$vxc" task slow.vxt --out tslowref >/dev/null 2>&1

# status FILE: summary.json's "status", or "bad-json" when it does not parse
status() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$1" 2>/dev/null ||
    echo bad-json
}

# rows_of_ref DIR REF: every line of DIR/sweep.csv is a line of REF/sweep.csv (no wrong row),
# the header first
rows_of_ref() {
  [ "$(head -n 1 "$1/sweep.csv")" = "$(head -n 1 "$2/sweep.csv")" ] || return 1
  tail -n +2 "$1/sweep.csv" | while IFS= read -r line; do
    grep -Fxq -- "$line" "$2/sweep.csv" || exit 1
  done
}

# ---- a write failure at every write --------------------------------------------------------

# sweep: each failure exits 1 naming a file of the folder; the rows left are the reference's;
# --resume then completes the same bytes
k=1 bad="" nfail=0
while [ $k -le 60 ]; do
  rm -rf d && cp -r ref d
  VXC_TEST_FAIL_WRITE=$k "$vxc" sweep drop.vxs --out d >o.txt 2>e.txt
  rc=$?
  [ $rc -eq 0 ] && break
  nfail=$((nfail + 1))
  grep -q "d/[a-z.]*: write error: No space left" e.txt || { bad="$bad k=$k:not-the-injected-failure"; break; }
  rows_of_ref d ref || bad="$bad k=$k:rows"
  "$vxc" sweep drop.vxs --out d --resume >/dev/null 2>&1 || bad="$bad k=$k:resume"
  cmp -s d/sweep.csv ref/sweep.csv || bad="$bad k=$k:resumed-bytes"
  k=$((k + 1))
done
ok "sweep: each of its $nfail writes failing exits 1 naming the file, keeps only right rows; --resume completes it" \
  0 '^ok$' -- sh -c "[ -z '$bad' ] && [ $nfail -ge 11 ] && echo ok || echo 'failed:$bad n=$nfail'"
ok "... and with no write failing the run is whole (exit 0, the same bytes)" 0 '^same$' -- \
  sh -c "[ $rc -eq 0 ] && cmp d/sweep.csv ref/sweep.csv && echo same"

# the same without the writer's hook, as the issue found it: strace fails one of the last
# write(2) calls of a sweep's parent process (the final rewrite of a 5 KB sweep.csv, larger
# than stdio's buffer, of times.csv, the summary) with ENOSPC. Whatever the write: exit 0
# only with the whole file and no error, never a sweep.csv without its header.
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
  sed 's/(sweep drop/(sweep many/; s/0.15 3)/0.15 70)/' drop.vxs >many.vxs
  "$vxc" sweep many.vxs --out mref >/dev/null 2>&1
  rm -rf d && cp -r mref d
  strace -o st.log -e trace=write "$vxc" sweep many.vxs --out d >/dev/null 2>&1
  nw=$(grep -c '^write(' st.log)
  k=$((nw - 6)) bad=""
  while [ $k -le "$nw" ]; do
    rm -rf d && cp -r mref d
    strace -o /dev/null -e trace=write -e inject=write:error=ENOSPC:when=$k \
      "$vxc" sweep many.vxs --out d >o.txt 2>e.txt
    rc=$?
    [ "$(head -n 1 d/sweep.csv)" = "$(head -n 1 mref/sweep.csv)" ] || bad="$bad k=$k:header"
    [ $rc -eq 0 ] && ! cmp -s d/sweep.csv mref/sweep.csv && bad="$bad k=$k:exit-0-not-whole"
    [ $rc -eq 0 ] && grep -q . e.txt && bad="$bad k=$k:exit-0-after-error"
    rows_of_ref d mref || bad="$bad k=$k:rows"
    k=$((k + 1))
  done
  ok "sweep under strace, ENOSPC on each of its last 7 writes: no exit 0 without the whole file, no header lost" \
    0 '^ok$' -- sh -c "[ -z '$bad' ] && [ $nw -gt 100 ] && echo ok || echo 'failed:$bad'"
else
  n=$((n + 1))
  echo "ok $n - sweep under strace write faults # SKIP strace missing or not permitted"
fi

# the issue's case: the final rewrite of sweep.csv (the next to last write; times.csv's is
# the last) failing must not leave a file without its header or rows, nor exit 0
rm -rf d && cp -r ref d
VXC_TEST_FAIL_WRITE=$((nfail - 1)) "$vxc" sweep drop.vxs --out d >o.txt 2>&1
rc=$?
ok "sweep: its final rewrite failing exits 1 naming sweep.csv and keeps the header and every row" \
  0 '^ok$' -- sh -c "grep -q 'd/sweep.csv: write error' o.txt && [ $rc -eq 1 ] &&
    [ \$(tail -n +2 d/sweep.csv | wc -l) -eq 3 ] && echo ok"
rows_of_ref d ref && same=same || same=differ
ok "... rows that are the reference's" 0 '^same$' -- echo $same

# task: summary.json never says "completed" unless both files are the previous run's,
# untouched; otherwise "running" or "write-error"; the rows written are the reference's
k=1 bad="" nfail=0
while [ $k -le 60 ]; do
  rm -rf t && cp -r tref t
  VXC_TEST_FAIL_WRITE=$k "$vxc" task drop.vxt --out t >o.txt 2>e.txt
  rc=$?
  [ $rc -eq 0 ] && break
  nfail=$((nfail + 1))
  grep -q "t/[a-z.]*: .*No space left" e.txt || { bad="$bad k=$k:not-the-injected-failure"; break; }
  st=$(status t/summary.json)
  case $st in
    completed) { cmp -s t/summary.json tref/summary.json && cmp -s t/series.csv tref/series.csv; } ||
      bad="$bad k=$k:stale" ;;
    running | write-error) ;;
    *) bad="$bad k=$k:status=$st" ;;
  esac
  head -c "$(wc -c <t/series.csv)" tref/series.csv | cmp -s - t/series.csv || bad="$bad k=$k:rows"
  k=$((k + 1))
done
ok "task: each of its $nfail writes failing exits non-zero naming the file, no stale or false status" \
  0 '^ok$' -- sh -c "[ -z '$bad' ] && [ $nfail -ge 15 ] && echo ok || echo 'failed:$bad n=$nfail'"

# metrics --vtk: the previous files intact after each failure
"$vxc" metrics "$data/ball.vxm" "$data/ball.vxm" --pose-a "0 0 0.199" --vtk vref.vtu \
  --vtk-solids vref.vtp --vtk-tol 0.04 >/dev/null 2>&1
k=1 bad="" nfail=0
while [ $k -le 200 ]; do
  cp vref.vtu v.vtu && cp vref.vtp v.vtp
  VXC_TEST_FAIL_WRITE=$k "$vxc" metrics "$data/ball.vxm" "$data/ball.vxm" --pose-a "0 0 0.1991" \
    --vtk v.vtu --vtk-solids v.vtp --vtk-tol 0.04 >o.txt 2>e.txt
  rc=$?
  [ $rc -eq 0 ] && break
  nfail=$((nfail + 1))
  grep -q "v\.vt[up]: .*No space left" e.txt || { bad="$bad k=$k:not-the-injected-failure"; break; }
  # each file is either the previous one or the new one whole: never cut
  for f in v.vtu v.vtp; do
    tail -n 1 $f | grep -q '</VTKFile>' || bad="$bad k=$k:$f-cut"
  done
  ls | grep -q '\.tmp\.' && bad="$bad k=$k:tmp-left"
  k=$((k + 1))
done
ok "metrics --vtk: each of its $nfail writes failing exits non-zero, no file cut, no temporary left" \
  0 '^ok$' -- sh -c "[ -z '$bad' ] && [ $nfail -ge 2 ] && echo ok || echo 'failed:$bad n=$nfail'"
ok "... the region written when no write fails differs from the previous (a real rewrite)" 1 \
  'differ' -- cmp v.vtu vref.vtu

# vxc belt: its files replaced whole or not at all (the reference written into b, as the
# plot script names its folder; the runs are deterministic, so old and new are the same)
rm -rf b && "$vxc" belt --law coulomb --duration 1 --plot --out b >/dev/null 2>&1 && mv b bref
k=1 bad="" nfail=0
while [ $k -le 40 ]; do
  rm -rf b && cp -r bref b
  VXC_TEST_FAIL_WRITE=$k "$vxc" belt --law coulomb --duration 1 --plot --out b >o.txt 2>e.txt
  rc=$?
  [ $rc -eq 0 ] && break
  nfail=$((nfail + 1))
  grep -q "b/[a-z./]*: .*No space left" e.txt || { bad="$bad k=$k:not-the-injected-failure"; break; }
  diff -r -x '*.png' b bref >/dev/null || bad="$bad k=$k:changed"
  ls -a b | grep -q '\.tmp\.' && bad="$bad k=$k:tmp-left"
  k=$((k + 1))
done
ok "belt: each of its $nfail writes failing exits non-zero naming the file, the previous files intact" \
  0 '^ok$' -- sh -c "[ -z '$bad' ] && [ $nfail -ge 2 ] && echo ok || echo 'failed:$bad n=$nfail'"

# vxc import: the model and its mesh are the previous ones, both, after each failure
if [ -x "$tools/vxc-import" ]; then
  mkdir -p im && "$vxc" import "$data/step/cone-peg.step" --mesh -o im/part.vxm >/dev/null 2>&1
  cp -r im imref
  k=1 bad="" nfail=0
  while [ $k -le 400 ]; do
    VXC_TEST_FAIL_WRITE=$k "$vxc" import "$data/step/cone-peg.step" --mesh --deflection 2e-4 \
      -o im/part.vxm >o.txt 2>e.txt
    rc=$?
    [ $rc -eq 0 ] && break
    nfail=$((nfail + 1))
    grep -q "im/part[-a-z]*\.\(obj\|vxm\): .*No space left" e.txt || { bad="$bad k=$k:not-the-injected-failure"; break; }
    diff -r im imref >/dev/null || bad="$bad k=$k:changed"
    k=$((k + 1))
  done
  ok "import: each of its $nfail writes failing exits 1 naming the file, model and mesh untouched" \
    0 '^ok$' -- sh -c "[ -z '$bad' ] && [ $nfail -ge 2 ] && echo ok || echo 'failed:$bad n=$nfail'"
  ok "... and with none failing both are replaced" 1 'part-cone-peg\.obj' -- diff -q -r im imref
else
  n=$((n + 2))
  echo "ok $((n - 1)) - import write failures # SKIP vxc-import not built"
  echo "ok $n - import replaced # SKIP vxc-import not built"
fi

# vxc-mujoco: as the task
mj="$tools/vxc-mujoco"
mjargs="$data/ball-on-table.xml --key thesis --contact table=$data/table.vxm ball=$data/ball.vxm
  --params $data/ball-on-table.params --voxel 4e-3 --duration 0.01 --every 0.002"
if [ -x "$mj" ]; then
  # shellcheck disable=SC2086
  "$mj" $mjargs --out mref >/dev/null 2>&1
  k=1 bad="" nfail=0
  while [ $k -le 40 ]; do
    rm -rf m && cp -r mref m
    # shellcheck disable=SC2086
    VXC_TEST_FAIL_WRITE=$k "$mj" $mjargs --out m >o.txt 2>e.txt
    rc=$?
    [ $rc -eq 0 ] && break
    nfail=$((nfail + 1))
    grep -q "m/[a-z.]*: .*No space left" e.txt || { bad="$bad k=$k:not-the-injected-failure"; break; }
    st=$(status m/summary.json)
    case $st in
      completed) cmp -s m/summary.json mref/summary.json || bad="$bad k=$k:stale" ;;
      running | failed) ;;
      *) bad="$bad k=$k:status=$st" ;;
    esac
    k=$((k + 1))
  done
  ok "vxc-mujoco: each of its $nfail writes failing exits non-zero naming the file, no stale status" \
    0 '^ok$' -- sh -c "[ -z '$bad' ] && [ $nfail -ge 3 ] && echo ok || echo 'failed:$bad n=$nfail'"
else
  n=$((n + 1))
  echo "ok $n - vxc-mujoco write failures # SKIP vxc-mujoco not built"
fi

# ---- kills at random points ------------------------------------------------------------------

# rand LO HI: a number of tenths of a second from the seed
rand() {
  seed=$(((seed * 1103515245 + 12345) % 2147483648))
  echo $(($1 + seed / 65536 % ($2 - $1 + 1)))
}

# killed_at TENTHS COMMAND...: runs COMMAND in its own process group and kills the group
# (SIGKILL) after TENTHS tenths of a second (or when it ends)
killed_at() {
  t=$1
  shift
  setsid "$@" >/dev/null 2>&1 &
  p=$!
  i=0
  while [ $i -lt "$t" ] && kill -0 $p 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -KILL -- "-$p" 2>/dev/null || kill -KILL $p 2>/dev/null
  wait $p 2>/dev/null
}

bad=""
for round in 1 2 3; do
  t=$(rand 1 25)
  rm -rf k && cp -r slowref k # a previous run in the folder
  killed_at "$t" "$vxc" sweep slow.vxs --out k --jobs 2
  rows_of_ref k slowref || bad="$bad round$round@${t}:rows"
  "$vxc" sweep slow.vxs --out k --jobs 2 --resume >/dev/null 2>&1 || bad="$bad round$round:resume"
  cmp -s k/sweep.csv slowref/sweep.csv || bad="$bad round$round@${t}:bytes"
  ls -a k | grep -q '\.tmp\.' && bad="$bad round$round:temporary-left"
done
ok "sweep: killed 3 times at random points, the rows left are right, --resume gives the same bytes, no temporary left" \
  0 '^ok$' -- sh -c "[ -z '$bad' ] && echo ok || echo 'failed:$bad'"

bad=""
for round in 1 2 3; do
  t=$(rand 1 15)
  rm -rf kt && cp -r tslowref kt
  killed_at "$t" "$vxc" task slow.vxt --out kt
  st=$(status kt/summary.json)
  if [ "$st" = completed ]; then
    cmp -s kt/series.csv tslowref/series.csv || bad="$bad round$round@${t}:stale-completed"
  elif [ "$st" != running ]; then
    bad="$bad round$round@${t}:status=$st"
  fi
  head -c "$(wc -c <kt/series.csv)" tslowref/series.csv | cmp -s - kt/series.csv ||
    bad="$bad round$round@${t}:rows"
  "$vxc" task slow.vxt --out kt >/dev/null 2>&1 || bad="$bad round$round:rerun"
  cmp -s kt/series.csv tslowref/series.csv || bad="$bad round$round:rerun-bytes"
  [ "$(status kt/summary.json)" = completed ] || bad="$bad round$round:rerun-status"
  ls -a kt | grep -q '\.tmp\.' && bad="$bad round$round:temporary-left"
done
ok "task: killed 3 times at random points over a finished run, summary.json says running, never the old completed" \
  0 '^ok$' -- sh -c "[ -z '$bad' ] && echo ok || echo 'failed:$bad'"

# ---- two writers on one folder ------------------------------------------------------------

rm -rf two
setsid "$vxc" sweep slow.vxs --out two >/dev/null 2>&1 &
p=$!
i=0
while [ $i -lt 300 ] && ! grep -q . two/.vxc.lock 2>/dev/null; do
  sleep 0.05
  i=$((i + 1))
done
ok "sweep: a second run on a folder in use is refused, naming the first's pid" 1 "pid $p" -- \
  "$vxc" sweep slow.vxs --out two
ok "... a task too" 1 "pid $p" -- "$vxc" task slow.vxt --out two
wait $p
rc=$?
ok "... and the first ends whole" 0 '^ok$' -- sh -c "[ $rc -eq 0 ] && cmp two/sweep.csv slowref/sweep.csv && echo ok"
if command -v mpirun >/dev/null 2>&1 && [ -x "$tools/vxc-sweep-mpi" ]; then
  rm -rf two2
  setsid "$vxc" sweep slow.vxs --out two2 >/dev/null 2>&1 &
  p=$!
  i=0
  while [ $i -lt 300 ] && ! grep -q . two2/.vxc.lock 2>/dev/null; do
    sleep 0.05
    i=$((i + 1))
  done
  ok "vxc-sweep-mpi on a folder in use is refused, naming the pid" 1 "pid $p" -- \
    env ASAN_OPTIONS=detect_leaks=0 mpirun --oversubscribe --allow-run-as-root -n 1 \
    "$tools/vxc-sweep-mpi" slow.vxs --out two2
  kill -KILL -- "-$p" 2>/dev/null
  wait $p 2>/dev/null
else
  n=$((n + 1))
  echo "ok $n - vxc-sweep-mpi lock # SKIP mpirun or vxc-sweep-mpi missing"
fi

if [ -x "$mj" ]; then
  rm -rf two3
  # the holder: a task far longer than the check (killed after it), however fast the engine
  sed 's/(duration 0.35)/(duration 1000)/' slow.vxt >hold.vxt
  setsid "$vxc" task hold.vxt --out two3 >/dev/null 2>&1 &
  p=$!
  i=0
  while [ $i -lt 300 ] && ! grep -q . two3/.vxc.lock 2>/dev/null; do
    sleep 0.05
    i=$((i + 1))
  done
  # shellcheck disable=SC2086
  ok "vxc-mujoco on a folder in use is refused, naming the pid" 1 "pid $p" -- "$mj" $mjargs --out two3
  kill -KILL -- "-$p" 2>/dev/null
  wait $p 2>/dev/null
else
  n=$((n + 1))
  echo "ok $n - vxc-mujoco lock # SKIP vxc-mujoco not built"
fi

# a usage error never touches an existing output
rm -rf u && cp -r ref u && cp -r tref u2
"$vxc" sweep drop.vxs --out u --jobs 0 >/dev/null 2>&1
"$vxc" task drop.vxt --out u2 --max-steps 1.5 >/dev/null 2>&1
ok "usage errors leave the folders as they were" 0 '^ok$' -- \
  sh -c "diff -r u ref >/dev/null && diff -r u2 tref >/dev/null && echo ok"

# ---- resume only what matches ----------------------------------------------------------------

rm -rf r && cp -r ref r && cp drop.vxt drop.vxt.orig
sed -i 's/(duration 0.12)/(duration 0.13)/' drop.vxt
ok "--resume after the task file changed refuses, naming it" 1 'task file .*drop\.vxt changed' -- \
  "$vxc" sweep drop.vxs --out r --resume
cp drop.vxt.orig drop.vxt
cp ball.vxm ball.vxm.orig && echo "; edited" >>ball.vxm
ok "--resume after a model changed refuses, naming it" 1 'model file .*ball\.vxm changed' -- \
  "$vxc" sweep drop.vxs --out r --resume
cp ball.vxm.orig ball.vxm
# the issue's case: a (set (duration ...)) added to the sweep, same header, same cases
cp drop.vxs drop.vxs.orig && sed -i 's/  (outputs/  (set (duration 0.3))\n  (outputs/' drop.vxs
ok "--resume after the sweep file changed (a set form) refuses, naming it" 1 'sweep file .*drop\.vxs changed' -- \
  "$vxc" sweep drop.vxs --out r --resume
cp drop.vxs.orig drop.vxs
ok "... the folder untouched by the refusals (but for the lock's pid)" 0 '^same$' -- \
  sh -c "diff -r -x .vxc.lock r ref && echo same"
# a row whose output is garbage, and a second row of case 0 with another value
awk -F, -v OFS=, 'NR == 3 { $3 = "garbage" } { print } END { }' ref/sweep.csv >r/sweep.csv
sed -n 2p ref/sweep.csv | awk -F, -v OFS=, '{ $3 = 1.5; print }' >>r/sweep.csv
ok "--resume drops a row that does not parse and both rows of a repeated case, saying where" 0 \
  'sweep\.csv:3: an output is not a number.*sweep\.csv:5: a second row.*2 run now, 1 resumed' -- \
  sh -c "'$vxc' sweep drop.vxs --out r --resume 2>&1 | tr '\n' ' '"
ok "... reruns those two cases: the same bytes as the reference" 0 '^same$' -- \
  sh -c "cmp r/sweep.csv ref/sweep.csv && echo same"

# ---- exit statuses ---------------------------------------------------------------------------

if [ -x "$tools/vxc-import" ]; then
  ok "vxc import > /dev/full exits 1 with a message" 1 'standard output: write error' -- \
    sh -c "'$vxc' import '$data/step/cone-peg.step' -o im2.vxm >/dev/full"
else
  n=$((n + 1))
  echo "ok $n - vxc import > /dev/full # SKIP vxc-import not built"
fi
# (run as a singleton: under mpirun the rank writes to mpirun's pseudo-terminal, and Open
# MPI's mpirun ignores its own failed writes: tools/README.md)
if [ -x "$tools/vxc-sweep-mpi" ]; then
  ok "vxc-sweep-mpi > /dev/full exits 1 with a message" 1 'standard output: write error' -- \
    sh -c "ASAN_OPTIONS=detect_leaks=0 '$tools/vxc-sweep-mpi' drop.vxs --out mp >/dev/full"
else
  n=$((n + 1))
  echo "ok $n - vxc-sweep-mpi > /dev/full # SKIP mpirun or vxc-sweep-mpi missing"
fi
if [ -x "$mj" ]; then
  # shellcheck disable=SC2086
  ok "vxc-mujoco > /dev/full exits 1 with a message" 1 'standard output: write error' -- \
    sh -c "'$mj' $(echo $mjargs) --out mfull >/dev/full"
else
  n=$((n + 1))
  echo "ok $n - vxc-mujoco > /dev/full # SKIP vxc-mujoco not built"
fi
"$vxc" force "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --param k_v=1.7e308 \
  --json >fj 2>/dev/null
rc=$?
ok "force --json whose force fails leaves one valid JSON object, the error, exit 1" 0 '^error 1$' -- \
  sh -c "python3 -c 'import json; e = json.load(open(\"fj\"))[\"error\"]; print(\"error\", e[\"exit_status\"])' && [ $rc -eq 1 ]"
ok "task --max-steps 1.5 is refused, not taken as 1" 2 'max-steps: expected a whole number' -- \
  "$vxc" task drop.vxt --out ms --max-steps 1.5
ok "a run stopped at --max-steps says its status word, limit, not FAILED" 1 'task drop: limit at' -- \
  "$vxc" task drop.vxt --out ms --max-steps 5
sed 's/(pose 0 0 0.15)/(pose 0 0 1e5)/' drop.vxt >far.vxt
ok "a pose beyond the 1e4 m workspace is refused by the reader at its line and column" 1 \
  'far\.vxt:4:15: a position beyond the workspace \(z = 100000 m' -- "$vxc" task far.vxt --out far
ok "... and wrote nothing" 0 '^none$' -- sh -c "[ ! -e far ] && echo none"

# --max-memory: one bound over a run's loading and queries. A mesh model that needs more is
# refused while loading; an octree workspace refining a grazing contact to 1e-7 of its volume
# (no absolute tolerance) passes it while running (the task alone, and each case of a sweep
# that loaded within it); a generous bound changes nothing.
ok "mass --max-memory: a mesh model that needs more is refused, naming the bound" 1 \
  'vxc mass: the --max-memory bound of 100000 bytes was reached while loading .*mesh-torus\.vxm' -- \
  "$vxc" mass "$data/mesh-torus.vxm" --max-memory 1e5
ok "... --json: the same as its error object" 1 '^\{"error": \{"exit_status": 1, "message": "the --max-memory bound' -- \
  sh -c "'$vxc' mass '$data/mesh-torus.vxm' --max-memory 1e5 --json 2>/dev/null"
"$vxc" mass "$data/mesh-torus.vxm" --json | sed 's/"time_ms": [0-9.e+-]*//g' >mass-free
"$vxc" mass "$data/mesh-torus.vxm" --json --max-memory 1e9 | sed 's/"time_ms": [0-9.e+-]*//g' >mass-bound
ok "... under a generous bound the same mass properties" 0 '^same$' -- \
  sh -c "cmp -s mass-free mass-bound && echo same"
ok "metrics: a query's workspace passing the bound is an error naming it" 1 \
  'vxc metrics: the --max-memory bound of 500000 bytes was reached while measuring the contact' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --no-closed-form \
  --rtol 1e-7 --max-memory 5e5
sed 's/(contact table ball (voxel 1e-3))/(contact table ball (rtol 1e-7) (atol 1e-30) (closed-form off))/' \
  drop.vxt >fine.vxt
ok "task: a query's workspace passing the bound fails the run, naming it" 1 \
  'the --max-memory bound of 1000000 bytes was reached while running the task \(at t = 0\.1' -- \
  "$vxc" task fine.vxt --out fine --max-memory 1e6
"$vxc" task drop.vxt --out free >/dev/null 2>&1
"$vxc" task drop.vxt --out bound --max-memory 1e9 >/dev/null 2>&1
ok "... and under a generous bound a run writes the same series" 0 '^same$' -- \
  sh -c "cmp -s free/series.csv bound/series.csv && echo same"
cat >fine.vxs <<EOT
(sweep fine (task "fine.vxt")
  (vary (body ball pose z 0.11 0.12 2))
  (outputs peak_fn))
EOT
ok "sweep: each case passing the bound fails, naming it and the case (exit 1)" 1 \
  'case 1: failed: the --max-memory bound of 1000000 bytes was reached while running case 1' -- \
  "$vxc" sweep fine.vxs --out fine-sw --max-memory 1e6
ok "a malformed --max-memory is a usage error" 2 'max-memory: expected a whole number of bytes' -- \
  "$vxc" task drop.vxt --out ms --max-memory 1.5
[ "$failed" -eq 0 ]
