#!/bin/sh
# test_mujoco_gripper.sh: vxc-mujoco's actuation schedule (--schedule PREFIX: the actuators'
# controls from the model's keyframes) and the grasp of data/gripper-peg-in-hole.xml (TAP
# output for Automake's driver; skipped without MuJoCo):
# - a slide joint under a position actuator (kp 1e4 N/m, damping 200 N s/m, 1 kg: critically
#   damped, omega 100 rad/s) whose target ramps from 0 to 0.1 m over 0.5 s follows the ramp
#   with the closed-form lag c v / kp and holds the last keyframe's target after it; a
#   keyframe outside the prefix is not on the timeline;
# - no keyframe with the prefix, or two at the same time, is a usage error;
# - the gripper's two pads closing on the peg standing on the table (three contacts on one
#   body: their impacts go to the joint implicit step) stop in the head's faces: each pad's
#   normal force equals its actuator's pull kp (ctrl - q) (within 2%), its overlap V is the
#   box A (0.035 - y) of its face (A = 30 x 16 mm) in the 60 mm head (1%), k_v V is at
#   most that force (the rest the hysteretic damping of the pad still creeping in) and the
#   pad's face is inside the head by less than 1 mm (it went through before);
# - the energy account against a run it let through before: two pads squeeze a 1 kg box
#   at k_v 1e11 (their 2 ms step far above the squeeze's time scale: it never settles).
#   Run to its end (--energy-tolerance 1e6), its budget's error reaches over 100 J either
#   way, more than 20 times the energy the bodies could have had (energy_reference: the kinetic
#   energy at the start, the potential energy released, the positive work put in), while
#   the excess the passivity test measures stays below 1e-2 of energy_scale, the largest
#   K + |P - P0| + E + D + |W|, which the error's own terms inflate (the old test); with
#   the default tolerance the run stops with status "energy-error", exit status 4;
# - the same pads on a carriage squeeze the box on the floor and lift it 50 mm at up to
#   0.1 m/s (the implicit step's friction records, with MuJoCo's implicit joint damping in
#   the bodies' mass matrix): once off the floor each pad's friction is m (g + a) / 2 within
#   1% at every step (a the box's acceleration over the step), the friction never exceeds
#   mu_s f_n, the box slips on the pads by less than mu_s / sigma0 (the deflection at which
#   a sticking bristle reaches the static limit: a contact that never slides stays within
#   it), it never moves sideways and ends 50 mm up;
# - the whole scene (pick, lift, carry, insert, release) completes; the peg ends on the floor
#   of the hole (its depth read from step/hole-block.vxm) carried by the block, the pads hold
#   it while lifting (slip < mu_s / sigma0) and carrying, and its energy budget holds;
#   --plot-against draws its force against depth beside a task's, the pair found either way;
# - its insertion (k_v 1e11 on the peg and the block, as the task's) against vxc task
#   step-peg-in-hole.vxt, whose gripper spring is the scene's wrist: the axial and the normal
#   force from 5 to 30.7 mm deep differ from the task's by less than 5% RMS of its peak.
set -u
. "$(dirname "$0")/tap.sh"
mujoco_or_skip

# figured NAME FILE: FILE's lines go to the log as comments; the case passes when its last
# line is "ok"
figured() {
  sed 's/^/# /' "$2"
  ok "$1" 0 '^ok$' -- tail -n 1 "$2"
}

# value of column COL at time T in FILE (series.csv)
at() {
  awk -F, -v c="$1" -v t="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                              $1 + 0 == t + 0 { print $k }' "$3"
}

slider() { # slider MODEL KEYFRAMES...
  out=$1
  shift
  {
    echo '<mujoco><option timestep="0.001" gravity="0 0 0"/><worldbody><body name="slider">'
    echo '<joint name="x" type="slide" axis="1 0 0" damping="200"/>'
    echo '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody>'
    echo '<actuator><position joint="x" kp="1e4"/></actuator><keyframe>'
    for k in "$@"; do echo "$k"; done
    echo '</keyframe></mujoco>'
  } >"$out"
}

echo "1..15"
slider "$tmp/s.xml" '<key name="ramp.a" time="0" ctrl="0"/>' '<key name="other" time="0.3" ctrl="5"/>' \
  '<key name="ramp.b" time="0.5" ctrl="0.1"/>'
"$mj" "$tmp/s.xml" --native --schedule ramp. --duration 1 --every 0.01 --out "$tmp/s" \
  --quiet >"$tmp/s.log" 2>&1
{
  x4=$(at slider.x 0.4 "$tmp/s/series.csv")
  x1=$(at slider.x 1 "$tmp/s/series.csv")
  awk -v x4="$x4" -v x1="$x1" 'BEGIN {
    want = 0.08 - 200 * 0.2 / 1e4
    print "x(0.4 s)", x4, "m, the ramp less c v / kp:", want, "m; x(1 s)", x1, "m, held at 0.1 m"
    d4 = x4 - want; d1 = x1 - 0.1
    print (x4 != "" && d4 < 1e-4 && d4 > -1e-4 && d1 < 1e-4 && d1 > -1e-4) ? "ok" : "off" }'
} >"$tmp/r1"
figured "ctrl follows the keyframes' ramp (lag c v / kp) and holds the last (1e-4 m)" "$tmp/r1"
ok "no keyframe with the prefix is a usage error" 2 "no keyframe named 'nope\." -- \
  "$mj" "$tmp/s.xml" --native --schedule nope. --out "$tmp/e1"
slider "$tmp/t.xml" '<key name="a.0" time="0.5" ctrl="0"/>' '<key name="a.1" time="0.5" ctrl="1"/>'
ok "two keyframes at the same time are a usage error" 2 "'a\.0' and 'a\.1' have the same time" -- \
  "$mj" "$tmp/t.xml" --native --schedule a. --out "$tmp/e2"

# the grasp: the pads close on the head from 0.35 s and squeeze until 0.81 s (pick.squeeze)
cd "$data" || exit 1
pad=gripper-pad.vxm peg=step/peg.vxm
"$mj" gripper-peg-in-hole.xml --key pick.start --schedule pick. \
  --params gripper-peg-in-hole.params --contact block=step/hole-block.vxm peg=$peg \
  --contact table=table.vxm peg=$peg --contact pad_l=$pad peg=$peg --contact pad_r=$pad peg=$peg \
  --duration 0.85 --every 0.01 --out "$tmp/g" --quiet >"$tmp/g.log" 2>&1
for side in l r; do
  y=$(at pad_$side.y 0.85 "$tmp/g/series.csv")
  fn=$(at pad_$side~peg.fn 0.85 "$tmp/g/series.csv")
  v=$(at pad_$side~peg.V 0.85 "$tmp/g/series.csv")
  awk -v y="$y" -v fn="$fn" -v v="$v" -v s=$side 'BEGIN {
    y = y < 0 ? -y : y; q = 0.045 - y; pull = 1e4 * (0.04 - q); kv = 1e9 * v
    vbox = 0.03 * 0.016 * (0.035 - y)
    printf "pad_%s: f_n %.6g N, kp (ctrl - q) %.6g N, k_v V %.6g N; V %.6g m^3, box %.6g m^3\n",
           s, fn, pull, kv, v, vbox
    print (fn > 0 && (fn / pull - 1)^2 < 4e-4 && (v / vbox - 1)^2 < 1e-4 && kv <= fn &&
           y > 0.034 && y < 0.035) ? "ok" : "off" }'
done >"$tmp/r4"
grep -c '^ok$' "$tmp/r4" | sed 's/^2$/ok/' >>"$tmp/r4"
figured "the pads stop in the head's faces and squeeze it with their actuators' pull (2%)" "$tmp/r4"
ok "the grasp run completes" 0 '"status": "completed"' -- cat "$tmp/g/summary.json"
# the two scenes' floor and 1 kg box (the pads' and the lift's MJCF start with them)
box_scene='<mujoco><option timestep="0.002" gravity="0 0 -9.81"/>
  <worldbody><geom type="box" size="0.2 0.2 0.01" pos="0 0 -0.01"/>
    <body name="box" pos="0 0 0.02"><freejoint/>
      <inertial pos="0 0 0" mass="1" diaginertia="2.667e-4 2.667e-4 2.667e-4"/>
      <geom type="box" size="0.02 0.02 0.02"/></body>'
cat >"$tmp/box.vxm" <<'EOT'
(solid box (density 1000) (cell b (box 0.04 0.04 0.04)))
EOT
# the energy account: a squeeze that never settles, run to its end and with the default test
{
  printf '%s\n' "$box_scene"
  cat <<'EOT'
    <body name="pad_l" pos="0 0.03 0.02"><joint name="l" type="slide" axis="0 -1 0" damping="50"/>
      <inertial pos="0 0 0" mass="0.3" diaginertia="1e-4 1e-4 1e-4"/></body>
    <body name="pad_r" pos="0 -0.03 0.02"><joint name="r" type="slide" axis="0 1 0" damping="50"/>
      <inertial pos="0 0 0" mass="0.3" diaginertia="1e-4 1e-4 1e-4"/></body></worldbody>
  <actuator><position joint="l" kp="1e4"/><position joint="r" kp="1e4"/></actuator>
  <keyframe><key name="s.0" time="0" ctrl="0 0"/><key name="s.1" time="0.05" ctrl="0.004 0.004"/>
    <key name="s.2" time="0.15" ctrl="0.006 0.006"/><key name="s.3" time="0.25" ctrl="0.035 0.035"/>
  </keyframe></mujoco>
EOT
} >"$tmp/pads.xml"
pads="--contact pad_l=$data/gripper-pad.vxm box=$tmp/box.vxm --contact pad_r=$data/gripper-pad.vxm box=$tmp/box.vxm"
"$mj" "$tmp/pads.xml" --key s.0 --schedule s. --params "$data/gripper-peg-in-hole.params" \
  --param k_v=1e11 $pads --duration 0.8 --every 0.01 --energy-tolerance 1e6 --quiet \
  --out "$tmp/sq" >"$tmp/sq.log" 2>&1
echo "exit $?" >"$tmp/r6"
tr ',' '\n' <"$tmp/sq/summary.json" | awk -F': ' '/"error"|energy_reference|energy_scale|max_energy_created|"status"/ {
    gsub(/[" {}]/, "", $1); v[$1] = $2; print $1, $2 }
  END { r = v["energy_reference"]
    e = v["error"] < 0 ? -v["error"] : v["error"]
    print (v["status"] ~ /completed/ && e > 100 && e > 20 * r &&
           v["max_energy_created"] < 1e-2 * v["energy_scale"]) ? "ok" : "off" }' >>"$tmp/r6"
figured "a squeeze that never settles: budget error over 20 x energy_reference, the old test passed it" \
  "$tmp/r6"
ok "... with the default tolerance it stops: energy-error, exit 4" 4 'energy created' -- \
  "$mj" "$tmp/pads.xml" --key s.0 --schedule s. --params "$data/gripper-peg-in-hole.params" \
  --param k_v=1e11 $pads --duration 0.8 --quiet --out "$tmp/sq4"
ok "... its summary says so" 0 '"status": "energy-error"' -- cat "$tmp/sq4/summary.json"
# the lift: the pads on a carriage (slide z, kp 1e6) squeeze the box, then lift it 50 mm
{
  printf '%s\n' "$box_scene"
  cat <<'EOT'
    <body name="carriage"><joint name="lift" type="slide" axis="0 0 1" damping="2000"/>
      <inertial pos="0 0 0.05" mass="1" diaginertia="1e-3 1e-3 1e-3"/>
      <body name="pad_l" pos="0 0.03 0.02"><joint name="l" type="slide" axis="0 -1 0" damping="50"/>
        <inertial pos="0 0 0" mass="0.3" diaginertia="1e-4 1e-4 1e-4"/></body>
      <body name="pad_r" pos="0 -0.03 0.02"><joint name="r" type="slide" axis="0 1 0" damping="50"/>
        <inertial pos="0 0 0" mass="0.3" diaginertia="1e-4 1e-4 1e-4"/></body></body></worldbody>
  <actuator><position joint="l" kp="1e4"/><position joint="r" kp="1e4"/>
    <position joint="lift" kp="1e6"/></actuator>
  <keyframe><key name="s.0" time="0" ctrl="0 0 0"/><key name="s.1" time="0.05" ctrl="0.004 0.004 0"/>
    <key name="s.2" time="0.15" ctrl="0.006 0.006 0"/><key name="s.3" time="0.25" ctrl="0.035 0.035 0"/>
    <key name="s.4" time="0.5" ctrl="0.035 0.035 0"/><key name="s.5" time="0.6" ctrl="0.035 0.035 0.0025"/>
    <key name="s.6" time="0.7" ctrl="0.035 0.035 0.01"/><key name="s.7" time="1.1" ctrl="0.035 0.035 0.05"/>
  </keyframe></mujoco>
EOT
} >"$tmp/lift.xml"
"$mj" "$tmp/lift.xml" --key s.0 --schedule s. --params "$data/gripper-peg-in-hole.params" $pads \
  --duration 1.3 --every 0.002 --quiet --out "$tmp/lift" >"$tmp/lift.log" 2>&1
echo "exit $?" >"$tmp/r9"
awk -F, -v h=0.002 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { n++; t[n] = $1; z[n] = $c["box.z"]; vz[n] = $c["box.vz"]; pz[n] = $c["pad_l.z"]
    f[n] = $c["pad_l~box.Fz"]; g[n] = $c["pad_r~box.Fz"]; vx[n] = $c["box.vx"]
    for (k = 0; k < 2; k++) { p = k ? "pad_r~box" : "pad_l~box"; fn = $c[p ".fn"]
      if (fn > 0 && $c[p ".ft"] / (0.2 * fn) > over) over = $c[p ".ft"] / (0.2 * fn) } }
  END { for (k = 2; k < n; k++) {
      if (z[k] < 0.0201) continue           # on the floor: MuJoCo contact, not in the solve
      if (!off) { off = k; d0 = z[k] - pz[k] }
      # m (g + a) / 2 over the step the force acts: a from the positions, which the leapfrog
      # moves by h times the velocity over each step (a record holds the mean of two steps)
      s = (9.81 + (z[k + 1] - 2 * z[k] + z[k - 1]) / (h * h)) / 2
      e = -f[k] / s - 1; e = e < 0 ? -e : e; if (e > worst) worst = e
      e = -g[k] / s - 1; e = e < 0 ? -e : e; if (e > worst) worst = e
      d = z[k] - pz[k] - d0; d = d < 0 ? -d : d; if (d > slip) slip = d
      d = vx[k] < 0 ? -vx[k] : vx[k]; if (d > side) side = d }
    printf "off the floor from %s s: |friction / (m (g + a) / 2) - 1| %.3g; largest f_t / mu_s f_n %.4g\n",
           t[off], worst, over
    printf "slip on the pads %.3g m (mu_s / sigma0 = 2e-6 m); largest |v_x| %.3g m/s; lifted %.6g m\n",
           slip, side, z[n] - z[1]
    print (off && worst < 0.01 && over <= 1 && slip < 2e-6 && side < 1e-6 &&
           (z[n] - z[1] - 0.05)^2 < 1e-8) ? "ok" : "off" }' "$tmp/lift/series.csv" >>"$tmp/r9"
figured "a box lifted between two pads sticks: friction m (g + a) / 2 (1%), slip < mu_s / sigma0" \
  "$tmp/r9"
# the whole scene: pick, lift 15 mm, carry over the hole, insert at 0.042857 m/s, release;
# its plots against a task's series whose one contact is peg~block (the scene's block~peg the
# other way round: the force on the peg is then the column itself)
cd "$data" || exit 1
mkdir "$tmp/task"
printf 't,peg.z,peg~block.Fz,peg~block.npairs\n0,0,1,1\n1,-0.01,2,1\n' >"$tmp/task/series.csv"
"$mj" gripper-peg-in-hole.xml --key pick.start --schedule pick. \
  --params gripper-peg-in-hole.params --contact block=step/hole-block.vxm peg=$peg \
  --contact table=table.vxm peg=$peg --contact pad_l=$pad peg=$peg --contact pad_r=$pad peg=$peg \
  --duration 4.4 --every 0.01 --out "$tmp/full" --plot --plot-against "$tmp/task" --quiet \
  >"$tmp/full.log" 2>&1
echo "exit $?" >"$tmp/r10"
cat "$tmp/full/summary.json" >>"$tmp/r10"
ok "the whole scene (4.4 s) completes" 0 '"status": "completed"' -- cat "$tmp/r10"
# the hole's depth from the block's model: the cell with the hole, (slab z LO HI) minus the
# cylinder; the peg's frame is at its tip. Released, the peg rests on the hole's floor, its
# tip sunk by m g / (k_v pi r^2) = 14 um for a level tip (1.5475 kg, r 18.5 mm, k_v 1e9; the
# peg's 0.1-degree lean in the 0.5 mm clearance lifts one side), and the block carries its
# weight (block~peg.Fz is the force on the block; the peg rocks in the hole's clearance, its
# load swinging a few percent about m g: the mean over the last 0.1 s, 11 records).
depth=$(awk '/not \(cylinder/ { for (i = 1; i < NF; i++) if ($i == "(slab" && $(i + 1) == "z") {
  hi = $(i + 3); sub(/\)/, "", hi); print hi - $(i + 2) } }' step/hole-block.vxm)
z=$(at peg.z 4.4 "$tmp/full/series.csv")
fz=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "block~peg.Fz") k = i; next }
              $1 >= 4.2999 { s += $k; n++ } END { print s / n }' "$tmp/full/series.csv")
awk -v d="$depth" -v z="$z" -v fz="$fz" 'BEGIN { w = 1.54751 * 9.81
  printf "hole depth %s m (step/hole-block.vxm); the tip at %s m; the block pushed down by %s N (mean of the last 0.1 s), m g %.5g N\n",
         d, z, -fz, w
  print (d > 0.07 && (z + d)^2 < 1e-8 && (-fz / w - 1)^2 < 1e-4) ? "ok" : "off" }' >"$tmp/r11"
figured "the peg ends in the hole's floor (0.1 mm), the block carrying its weight (1%)" "$tmp/r11"
# the grip: the peg's origin in each pad's frame (R^T (p_peg - p_pad)) moves along the pad's
# face (local x, z) by less than mu_s / sigma0 = 2e-6 m while the carriage lifts it (0.85 to
# 1.15 s: the bristles stick), and by less than 50 um (a tenth of the hole's 0.5 mm radial
# clearance) while it carries and tilts it over the hole (to 1.85 s: the pads' spinning
# friction yields a little to the turn); the peg rises at least 14 mm (15 mm commanded, less
# the wrist spring's sag under the peg's weight, 0.76 mm)
awk -F, 'function face(p,  w, x, y, z, dx, dy, dz) {
    w = $c[p ".qw"]; x = -$c[p ".qx"]; y = -$c[p ".qy"]; z = -$c[p ".qz"]
    dx = $c["peg.x"] - $c[p ".x"]; dy = $c["peg.y"] - $c[p ".y"]; dz = $c["peg.z"] - $c[p ".z"]
    u = (1 - 2 * (y * y + z * z)) * dx + 2 * (x * y - w * z) * dy + 2 * (x * z + w * y) * dz
    v = 2 * (x * z - w * y) * dx + 2 * (y * z + w * x) * dy + (1 - 2 * (x * x + y * y)) * dz }
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $1 >= 0.8499 && $1 <= 1.8501 {
    if (z0 == "") z0 = $c["peg.z"]
    if ($1 <= 1.1501 && $c["peg.z"] - z0 > up) up = $c["peg.z"] - z0
    for (k = 0; k < 2; k++) { p = k ? "pad_r" : "pad_l"; face(p)
      if (!(p in u0)) { u0[p] = u; v0[p] = v }
      s = sqrt((u - u0[p])^2 + (v - v0[p])^2)
      if ($1 <= 1.1501 && s > lift) lift = s
      if (s > carry) carry = s } }
  END { printf "slip on the pads: lifting %.3g m, carrying %.3g m; lifted %.4g m\n", lift, carry, up
        print (lift < 2e-6 && carry < 5e-5 && up > 0.014) ? "ok" : "off" }' \
  "$tmp/full/series.csv" >"$tmp/r12"
figured "the pads hold the peg: slip < mu_s / sigma0 lifting, < 50 um carrying" "$tmp/r12"
# the energy account: the budget's error within 1% of the energy the bodies could have had,
# and the energy created (the passivity test) within 0.1% of it
tr ',' '\n' <"$tmp/full/summary.json" | awk -F': ' '/energy_reference|max_abs_energy_error|max_energy_created/ {
    gsub(/[" {}]/, "", $1); v[$1] = $2; print $1, $2 }
  END { r = v["energy_reference"]
    print (r > 0 && v["max_abs_energy_error"] < 1e-2 * r && v["max_energy_created"] < 1e-3 * r) ? "ok" : "off" }' \
  >"$tmp/r13"
figured "... its energy budget's error below 1% of energy_reference, none created" "$tmp/r13"
gp="$tmp/full/plots.gp"
{
  grep -o "set output '.*force-depth.png'" "$gp"
  grep -o "title 'vxc[^']*'" "$gp" | grep -v "set title"
  grep -o "? column('peg~block.Fz')" "$gp" | sort -u
  [ "$(grep -c force-depth.png "$gp")" -eq 1 ] && grep -q "title 'vxc task: task'" "$gp" &&
    grep -q "title 'vxc-mujoco: gripper-peg-in-hole.xml'" "$gp" &&
    grep -q "? -column('block~peg.Fz')" "$gp" && grep -q "? column('peg~block.Fz')" "$gp" &&
    echo ok
} >"$tmp/r14"
figured "--plot-against: one force-depth plot, the scene's force on the peg and the task's" "$tmp/r14"
# the insertion against vxc task's (the same hand: the wrist is the task's gripper spring,
# the carriage's servos a hundred times stiffer): the task's k_v 1e11 on the block and the
# peg, both inserting at 0.042857 m/s to 30.7 mm; the force on the peg along z and the
# normal force, the scene's interpolated at the task's depths from 5 mm (past the
# chamfer's impact) to 30.7 mm, their RMS difference within 5% of the task's peak there
"$vxc" task step-peg-in-hole.vxt --duration 1.0 --out "$tmp/pt" >"$tmp/pt.log" 2>&1
echo 'k_v 1e11' >"$tmp/kv.params"
"$mj" gripper-peg-in-hole.xml --key pick.start --schedule pick. \
  --params gripper-peg-in-hole.params --contact block=step/hole-block.vxm peg=$peg \
  --contact table=table.vxm peg=$peg --contact pad_l=$pad peg=$peg --contact pad_r=$pad peg=$peg \
  --pair-params block peg "$tmp/kv.params" --duration 2.91 --every 0.002 --out "$tmp/ps" \
  --quiet >"$tmp/ps.log" 2>&1
for col in Fz fn; do
  awk -F, -v col=$col 'function load(f, D, F,  line, h, c, i, n, d, far) {
      far = -1; getline line <f; h = split(line, H, ",")
      for (i = 1; i <= h; i++) c[H[i]] = i
      while ((getline line <f) > 0) { split(line, v, ","); d = -v[c["peg.z"]]
        if (d <= far) continue          # the insertion: each depth once, going down
        far = d; n++; D[n] = d
        F[n] = col == "fn" ? v[c["block~peg.fn"]] : -v[c["block~peg.Fz"]] }
      close(f); return n }
    BEGIN { nt = load(ARGV[1], TD, TF); ns = load(ARGV[2], SD, SF); k = 1
      for (i = 1; i <= nt; i++) { d = TD[i]
        if (d < 0.005 || d > 0.0307) continue
        while (k < ns && SD[k + 1] < d) k++
        if (k >= ns || SD[k] > d) continue
        s = SF[k] + (SF[k + 1] - SF[k]) * (d - SD[k]) / (SD[k + 1] - SD[k])
        m++; sum += (s - TF[i])^2; a = TF[i] < 0 ? -TF[i] : TF[i]; if (a > peak) peak = a }
      r = m ? sqrt(sum / m) / peak : 1
      printf "%s: %d depths, the task peak %.4g N, RMS difference %.4g of it\n", col, m, peak, r
      print (m > 100 && r < 0.05) ? "ok" : "off"; exit }' "$tmp/pt/series.csv" "$tmp/ps/series.csv"
done >"$tmp/r15"
grep -c '^ok$' "$tmp/r15" | sed 's/^2$/ok/' >>"$tmp/r15"
figured "the insertion's axial and normal force within 5% RMS of vxc task's (5 to 30.7 mm)" "$tmp/r15"
[ "$failed" -eq 0 ]
