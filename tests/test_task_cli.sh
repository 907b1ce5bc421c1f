#!/bin/sh
# test_task_cli.sh: `vxc task` as a user meets it (TAP output for Automake's driver): usage
# errors, task-file errors with file:line:column, the fixed output files and columns of
# the README, a closed-form free fall read back from summary.json, plots, and a diverging
# run that stops with a message and keeps what it wrote.
set -u
. "$(dirname "$0")/tap.sh"

echo "1..39"
ok "task help" 0 '^usage: vxc task FILE' -- "$vxc" task --help
ok "task is listed" 0 'task ' -- "$vxc" --help
ok "a missing task file argument is a usage error" 2 'missing the task file' -- "$vxc" task
ok "an unknown option is named" 2 "unknown option '--bogus'" -- "$vxc" task x.vxt --bogus
ok "a bad --duration is a usage error" 2 'duration' -- "$vxc" task x.vxt --duration -3
ok "a missing task file is named" 1 'no-such\.vxt' -- "$vxc" task "$tmp/no-such.vxt"

# a typo in a task file: file, line and column
printf '(task t (duration 1)\n  (gravty 0 0 -9.81))\n' >"$tmp/typo.vxt"
ok "a typo names file, line and column" 1 'typo\.vxt:2:3: .*gravty' -- "$vxc" task "$tmp/typo.vxt" --out "$tmp/o0"

# free fall for 0.5 s from z = 1 m at rest: z = 1 - g t^2 / 2 = -0.22625 m (RK4 is exact)
cat >"$tmp/fall.vxt" <<EOT
(task fall (gravity 0 0 -9.81) (duration 0.5) (integrator rk4 (step 0.01))
  (record (every 0.1))
  (body ball (model "$data/ball.vxm") (free (mass 2) (inertia 0.008 0.008 0.008) (com 0 0 0))
    (pose 0 0 1)))
EOT
ok "a free fall runs and reports its speed" 0 'completed at t = 0\.5 s.*queries' -- \
  sh -c "'$vxc' task '$tmp/fall.vxt' --out '$tmp/fall' | tr '\n' ' '"
ok "series.csv has the fixed columns" 0 '^t,ball\.x,ball\.y,ball\.z,ball\.qw,ball\.qx,ball\.qy,ball\.qz,ball\.vx,ball\.vy,ball\.vz,ball\.wx,ball\.wy,ball\.wz' -- \
  head -n 1 "$tmp/fall/series.csv"
ok "one row per record time" 0 '^7$' -- sh -c "wc -l < '$tmp/fall/series.csv'"
ok "--out creates missing parent folders" 0 'series\.csv' -- \
  sh -c "'$vxc' task '$tmp/fall.vxt' --out '$tmp/deep/er/out' >/dev/null && ls '$tmp/deep/er/out'"
ok "summary.json has the final pose (closed form)" 0 '"ball": \{"pose": \[0, 0, -0\.22(62499999|62500000)' -- \
  cat "$tmp/fall/summary.json"
ok "summary.json has the energy budget" 0 '"energy": \{"kinetic": .*"potential": .*"dissipated": .*"error": ' -- \
  cat "$tmp/fall/summary.json"

# a ball dropped on a table: the contact's fixed columns and summary keys
cat >"$tmp/drop.vxt" <<EOT
(task drop (gravity 0 0 -9.81) (duration 0.2) (record (every 0.01))
  (body table (model "$data/table.vxm") (fixed) (pose 0 0 0))
  (body ball (model "$data/ball.vxm") (free (mass 2) (inertia 0.008 0.008 0.008) (com 0 0 0))
    (pose 0 0 0.15))
  (contact table ball (voxel 1e-3)))
EOT
ok "a contact's columns follow the bodies'" 0 ',ball\.wz,table~ball\.V,table~ball\.fn,table~ball\.ft,table~ball\.troll,table~ball\.tspin,' -- \
  sh -c "'$vxc' task '$tmp/drop.vxt' --out '$tmp/drop' --plot >/dev/null 2>&1; head -n 1 '$tmp/drop/series.csv'"
ok "summary.json has the contact's first and last times and peak force" 0 '"table~ball": \{"first": 0\.1009[0-9]*, "last": [0-9.e-]+, "peak_fn": [1-9]' -- \
  cat "$tmp/drop/summary.json"
ok "--plot writes the gnuplot script" 0 "forces\.png" -- cat "$tmp/drop/plots.gp"
ok "--plot's tilt plot reads the free body's quaternion" 0 "tilt\.png.*column\('ball\.qx'\)" -- \
  sh -c "tr '\\n' ' ' <'$tmp/drop/plots.gp'"

# a run that diverges (a far too stiff contact for a fixed 10 ms step) stops with a message
# and keeps the rows it wrote
cat >"$tmp/boom.vxt" <<EOT
(task boom (gravity 0 0 -9.81) (duration 1) (integrator rk4 (step 0.01)) (record (every 0.01))
  (body table (model "$data/table.vxm") (fixed) (pose 0 0 0))
  (body ball (model "$data/ball.vxm") (free (mass 2) (inertia 0.008 0.008 0.008) (com 0 0 0))
    (pose 0 0 0.11))
  (contact table ball (params (k_v 1e16)) (voxel 1e-3)))
EOT
ok "a diverging run stops with a message and keeps its rows" 1 '(diverged.*: failed|: failed.*diverged)' -- \
  sh -c "'$vxc' task '$tmp/boom.vxt' --out '$tmp/boom' 2>&1 | tr '\n' ' '; test \$(wc -l < '$tmp/boom/series.csv') -gt 2 && exit 1"

# a ball started 10 mm inside the table: refused, status and overlap in summary.json
sed 's/(pose 0 0 0.15)/(pose 0 0 0.09)/' "$tmp/drop.vxt" >"$tmp/inside.vxt"
ok "a start in overlap is refused, naming the bodies" 1 'table and ball overlap at t = 0.*initial-overlap allow' -- \
  "$vxc" task "$tmp/inside.vxt" --out "$tmp/inside"
ok "summary.json says initial-overlap with the volume" 0 '"initial_volume": 3\.03[0-9e-]*.*"status": "initial-overlap"' -- \
  sh -c "tr '\n' ' ' <'$tmp/inside/summary.json'"
# the drop with a fixed 5 ms RK4 step drifts by about 5e-3 of its energy: past 1e-4, it
# stops with status energy-error and exit status 4; the console shows the real-time factor
sed 's/(duration 0.2)/(duration 1) (integrator rk4 (step 5e-3)) (energy-tolerance 1e-4)/' \
  "$tmp/drop.vxt" >"$tmp/drift.vxt"
ok "a broken energy balance exits with status 4" 4 'energy balance broke' -- \
  "$vxc" task "$tmp/drift.vxt" --out "$tmp/drift"
ok "summary.json says energy-error and gives the real-time factor" 0 '"status": "energy-error".*"realtime_factor": [0-9]' -- \
  sh -c "tr '\n' ' ' <'$tmp/drift/summary.json'"

# a task file past the reader's 64 MiB is refused, not cut: a malformed form past the cut
# would otherwise be lost in silence
{ cat "$tmp/fall.vxt"; head -c 67108864 /dev/zero | tr '\0' ' '; echo '(oops'; } >"$tmp/big.vxt"
ok "a task file over 64 MiB is refused" 1 'big\.vxt: task file larger than 64 MiB' -- \
  "$vxc" task "$tmp/big.vxt" --out "$tmp/big"
rm -f "$tmp/big.vxt"

# bounded runs: an output that would pass --max-output is refused before any step, and a run
# past --max-steps stops with status "limit", its rows kept
sed 's/(record (every 0.1))/(record (every 1e-9))/' "$tmp/fall.vxt" >"$tmp/many.vxt"
ok "an output past --max-output is refused" 1 'would write 5e\+08 records .*--max-output' -- \
  "$vxc" task "$tmp/many.vxt" --out "$tmp/many"
ok "a run past --max-steps stops with status limit" 1 '"status": "limit".*"t_end": 0\.[0-9]*[1-9]' -- \
  sh -c "'$vxc' task '$tmp/drop.vxt' --out '$tmp/lim' --max-steps 5 >/dev/null 2>&1; tr '\n' ' ' <'$tmp/lim/summary.json'; exit 1"

# a failed write (here a file-size limit, as a full disk) stops the run at once with the
# file and the reason, exit status 1, and nothing that claims success; with SIGXFSZ ignored
# the write returns EFBIG instead of killing the process
sed 's/(record (every 0.1))/(record (every 1e-4))/' "$tmp/fall.vxt" >"$tmp/dense.vxt"
ok "a failed write of series.csv stops the run, naming the file" 1 'series\.csv: File too large' -- \
  sh -c "trap '' XFSZ; ulimit -f 8; '$vxc' task '$tmp/dense.vxt' --out '$tmp/efbig'"
ok "its summary says write-error, not completed" 0 '"status": "write-error"' -- \
  cat "$tmp/efbig/summary.json"
ok "vxc task on a full standard output exits 1" 1 'standard output: write error: No space' -- \
  sh -c "'$vxc' task '$tmp/fall.vxt' --out '$tmp/full' >/dev/full"

sed -e 's/(duration 0.5)/(duration 9e5)/' -e 's/(gravity 0 0 -9.81)/(gravity 0 0 0)/' \
  -e 's/(every 0.1)/(every 1)/' "$tmp/fall.vxt" >"$tmp/long.vxt"
# --max-wall bounds a run in wall time: it stops after the step under way, status limit
ok "--max-wall stops a long run with status limit" 1 'wall-time limit of 0\.5 s was reached' -- \
  "$vxc" task "$tmp/long.vxt" --out "$tmp/wall" --max-wall 0.5
ok "its summary says limit" 0 '"status": "limit"' -- cat "$tmp/wall/summary.json"

# ... and inside a slow query too: a cone pressed 0.1 mm into a countersink of its angle at
# rtol 1e-7 by the certified octree (closed-form off: the fast path takes it at once; not
# certified, the revolution rule in 30 ms) takes seconds a query (its memory cap ends it);
# the run stops at 0.5 s
cat >"$tmp/sink.vxm" <<EOT
(solid sink (cell block (box 0.1 0.1 0.04) (not (move (translate 0 0 -0.03) (cone 45)))))
EOT
cat >"$tmp/tip.vxm" <<EOT
(solid tip (density 7800) (cell tip (move (translate 0 0 -0.03) (cone 45)) (slab z -0.02 0.05)))
EOT
cat >"$tmp/slowq.vxt" <<EOT
(task slowq (duration 1) (initial-overlap allow) (integrator rk4 (step 1e-3))
  (body block (model "$tmp/sink.vxm") (fixed) (pose 0 0 0))
  (body tip (model "$tmp/tip.vxm") (pose 0 0 -0.0001)
    (driven (keyframe 0 0 0 -0.0001) (keyframe 1 0 0 -0.0002)
            (gripper (stiffness 1e5 10) (damping 500 0.05))))
  (contact block tip (params (k_v 1e8) (e_eff 0.5) (v_small 0.05) (tau_r 0) (mu_s 0.2)
    (mu_c 0.15) (sigma0 1e4) (sigma1 10) (sigma2 0) (v_s 1e-3) (tau_dw 0.01) (v_e 1e-5))
    (rtol 1e-7) (certified) (closed-form off)))
EOT
# --no-closed-form: every query of the ball on the table by the octree (0 in closed form)
ok "the ball on the table takes its fast paths" 0 '[1-9][0-9]* in closed form' -- \
  "$vxc" task "$data/ball-on-table.vxt" --duration 0.25 --out "$tmp/cf"
ok "--no-closed-form leaves every query to the octree" 0 ' 0 in closed form' -- \
  "$vxc" task "$data/ball-on-table.vxt" --duration 0.25 --out "$tmp/ncf" --no-closed-form
ok "--max-wall stops a run inside a slow query, within seconds" 1 'wall-time limit of 0\.5 s was reached at t = 0 s' -- \
  timeout 5 "$vxc" task "$tmp/slowq.vxt" --out "$tmp/slowq" --max-wall 0.5

# SIGTERM or SIGINT ends the run after the step under way: summary.json says "interrupted", the
# exit status is 128 + the signal (a background job of a plain shell ignores SIGINT: env
# --default-signal gives it back)
for sig in TERM INT; do
  want=143
  [ $sig = INT ] && want=130
  ok "SIG$sig stops a run with status $want" $want 'interrupted by SIG'$sig -- \
    sh -c "env --default-signal=INT '$vxc' task '$tmp/long.vxt' --out '$tmp/sig$sig' >/dev/null 2>'$tmp/sig$sig.err' & p=\$!
      i=0; while [ \$(wc -l <'$tmp/sig$sig/series.csv' 2>/dev/null || echo 0) -lt 3 ] &&
        [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
      kill -$sig \$p; wait \$p; s=\$?; cat '$tmp/sig$sig/summary.json'; exit \$s"
  ok "... and says when it stopped and where the outputs are" 0 \
    "^vxc: interrupted by SIG$sig at t = [0-9.e-]+ s \\(what was computed until then is in .*/sig$sig\\)\$" -- \
    cat "$tmp/sig$sig.err"
  ok "the interrupted run kept whole rows" 0 '^whole$' -- \
    awk -F, 'NR == 1 { n = NF } END { print (NF == n && NR >= 3) ? "whole" : "cut" }' \
    "$tmp/sig$sig/series.csv"
done

[ "$failed" -eq 0 ]
