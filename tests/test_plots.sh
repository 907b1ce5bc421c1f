#!/bin/sh
# test_plots.sh: the gnuplot scripts of `vxc task --plot`, `vxc sweep --plot`, `vxc belt
# --plot` and `vxc-mujoco --plot` (TAP output for Automake's driver), checked without
# rendering by plot_check.py: a title on every plot, one unit per axis label, a colour of its
# own for every curve (none pale) with a title in the key, y ranges from the data, heat maps
# with a labelled colour box. The checker is shown to catch the faults it checks (a script
# with two curves in one colour, pale yellow, m/s and rad/s on one axis, a fixed y range).
# With gnuplot installed, the scripts run on outputs full of constant series (a ball before
# its first contact: every force zero) and nothing reaches the console: no "empty y range"
# warning. Skipped without python3.
set -u
. "$(dirname "$0")/tap.sh"

check="${VXC_TESTDIR:-$(dirname "$0")}/plot_check.py"
if ! command -v python3 >/dev/null 2>&1; then
  echo "1..0 # SKIP python3 not found"
  exit 0
fi
mj="$(dirname "$vxc")/vxc-mujoco"
echo "1..14"

# the checker against scripts with one fault each
bad() {
  cat >"$tmp/bad.gp" <<EOT
set title 'velocities'
set xlabel 't [s]'
set ylabel '$1'
set yrange [$2]
plot 'x.csv' using 1:2 with lines lc rgb '$3' title 'a', 'x.csv' using 1:3 with lines lc rgb '$4' title 'b'
EOT
  python3 "$check" "$tmp/bad.gp"
}
ok "the checker passes a good script" 0 '^ok: .*1 plots, 2 curves' -- \
  bad 'velocity [m/s]' 'lo:hi' '#0072b2' '#d55e00'
ok "... and refuses two curves in one colour" 1 'sharing a colour' -- \
  bad 'velocity [m/s]' 'lo:hi' '#0072b2' '#0072B2'
ok "... pale yellow on white" 1 'pale colours' -- bad 'velocity [m/s]' 'lo:hi' '#0072b2' '#f0e442'
ok "... m/s and rad/s on one axis" 1 'does not name one unit' -- \
  bad 'velocity [m/s, rad/s]' 'lo:hi' '#0072b2' '#d55e00'
ok "... a fixed y range (the spin clipped at its top)" 1 'a fixed y range' -- \
  bad 'velocity [m/s]' '-10:3' '#0072b2' '#d55e00'

# no gnuplot warning on the console: stderr must be empty (gnuplot's own included; without
# gnuplot, but for the line saying so)
quiet() {
  "$@" >/dev/null 2>"$tmp/err0"
  rc=$?
  grep -v 'gnuplot not found: wrote' "$tmp/err0" >"$tmp/err"
  if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
    echo "status $rc:"
    cat "$tmp/err"
  else
    echo quiet
  fi
}

# a ball dropped on a table, 0.05 s: before its first contact, so every force, torque and
# the elastic energy are constant zero; a driven peg that never touches its block
cat >"$tmp/drop.vxt" <<EOT
(task drop (gravity 0 0 -9.81) (duration 0.05) (record (every 0.01))
  (body table (model "$data/table.vxm") (fixed) (pose 0 0 0))
  (body ball (model "$data/ball.vxm") (free (mass 2) (inertia 0.008 0.008 0.008))
    (pose 0 0 0.15) (velocity 0 0 0 0 0 3))
  (contact table ball (voxel 1e-3)))
EOT
ok "vxc task --plot: no warning on the console (constant series)" 0 '^quiet$' -- \
  quiet "$vxc" task "$tmp/drop.vxt" --out "$tmp/drop" --plot
ok "... its script: titles, units, colours, ranges" 0 '^ok: .*6 plots' -- \
  python3 "$check" "$tmp/drop/plots.gp"
ok "... the velocities in two panels, m/s and rad/s" 0 \
  "ylabel 'velocity \\[m/s\\]'.*ylabel 'angular velocity \\[rad/s\\]'" -- \
  sh -c "tr '\\n' ' ' <'$tmp/drop/plots.gp'"
ok "vxc task --plot of a driven peg (force against depth): quiet" 0 '^quiet$' -- \
  quiet "$vxc" task "$data/peg-in-hole.vxt" --duration 0.05 --out "$tmp/peg" --plot
ok "... its script" 0 '^ok: .*7 plots' -- python3 "$check" "$tmp/peg/plots.gp"

# a sweep of 2 x 2 cases over that drop: heat maps; impacts is 0 in every case (constant)
cat >"$tmp/drop.vxs" <<EOT
(sweep drop (task "drop.vxt")
  (vary (body ball pose z 0.14 0.15 2) (contact table ball mu_c (0.03 0.05)))
  (outputs peak_fn impacts))
EOT
ok "vxc sweep --plot: heat maps, a constant output among them: quiet" 0 '^quiet$' -- \
  quiet "$vxc" sweep "$tmp/drop.vxs" --out "$tmp/sweep" --plot
ok "... its script: units on the axes and the colour box" 0 '^ok: .*2 plots' -- \
  python3 "$check" "$tmp/sweep/sweep.gp"
ok "vxc belt --plot: four panels, each titled" 0 '^ok: .*4 plots, 4 curves' -- sh -c \
  "'$vxc' belt --law coulomb --duration 1 --out '$tmp/belt' --plot >/dev/null 2>&1 &&
   python3 '$check' '$tmp/belt/plots.gp'"
if [ -x "$mj" ]; then
  ok "vxc-mujoco --plot: quiet (but its run line), and its script checked" 0 '^ok: .*4 plots' \
    -- sh -c "'$mj' '$data/ball-on-table.xml' --key thesis --contact table='$data/table.vxm' \
       ball='$data/ball.vxm' --params '$data/ball-on-table.params' --voxel 2e-3 --duration 0.02 \
       --out '$tmp/mj' --plot >/dev/null 2>'$tmp/mjerr' &&
     ! grep -v -e '^vxc-mujoco: vxc contact, ' -e 'gnuplot not found' '$tmp/mjerr' &&
     python3 '$check' '$tmp/mj/plots.gp'"
else
  n=$((n + 1))
  echo "ok $n - vxc-mujoco --plot # SKIP vxc-mujoco not built"
fi
exit $((failed > 0))
