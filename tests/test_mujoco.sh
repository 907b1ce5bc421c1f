#!/bin/sh
# test_mujoco.sh: vxc-mujoco, vxc's volumetric contact inside MuJoCo, on the bundled scenes
# data/ball-on-table.xml and data/peg-in-hole.xml (TAP output for Automake's driver),
# against closed forms and the task runner:
# - a ball dropped 1 cm settles where k_v V = m g, V the spherical cap pi h^2 (R - h / 3)
#   (within 1e-6 m);
# - a ball spinning in place on that cap slows down at mu_c r_gyr m g / I (thesis 4.237),
#   r_gyr^2 = J_n / V with the cap's polar moment J_n = pi h^3 (20 R^2 - 15 R h + 3 h^2) / 30
#   (within 2%);
# - a ball dropped with e_eff = 0.5 and no friction rises to e_eff^2 of its drop height
#   (within 3%; k_v = 1e11, so the 0.6 mm deep impact lasts under a millisecond, and gravity
#   acting through it takes about 2%); on a carriage of two slides and a ball joint (a mass
#   matrix that is not diagonal) it falls and rebounds as a free ball of their mass (1e-7 m);
# - the thesis's run at MuJoCo's own 2 ms and 0.5 ms steps agrees with `vxc task
#   data/ball-on-table.vxt` over its first second, compared at the same times (height, roll
#   position and spin within 1% of each one's span);
# - MuJoCo's native contact, for comparison, holds the resting ball up with m g;
# - a peg enters the hole of a non-convex mesh block untouched on its free motion with vxc,
#   and stops at the mouth on MuJoCo's convex hull;
# - usage errors, missing files and a run MuJoCo finds unstable are reported; a usage error
#   leaves an existing output untouched, a misspelt option gets the nearest one;
# - the stability map's corners at MuJoCo's default step (2 ms) and at 0.5 ms (the contact
#   wrenches linearly implicit over the step): a ball resting at the depth of k_v V = m g,
#   for k_v 1e7 and 1e11 and e_eff 0.1 and 0.95, keeps f_n within 1% of m g at every step;
#   spinning at 10 rad/s (k_v 1e9, e_eff 0.2, sigma0 1e4, sigma1 63.9) it slows at the closed
#   form within 2%; with rate-independent rolling (eta_r 1 mm) it rolls to a stop at
#   5 g eta_r / (7 R) within 2%; dropped 0.1 m (k_v 1e7, 1e9, 1e11, e_eff 0.1, 0.5, 0.95) the
#   height its energy reaches after the bounce is within 3% of the model's exact rebound with
#   gravity (RK4 on the cap here), and of e_eff^2 of the
#   drop's where gravity's impulse over the contact is under 2% of the rebound's momentum (no
#   rebound where the exact one has none); the same spin with
#   --explicit creates energy at 2 ms and ends with status "energy-error", exit 4;
# - two pairs in one scene (two balls 0.4 m apart on the table, from a keyframe with each
#   at its resting depth) each hold their ball with m g and stay within 1 um of where they
#   rest over 1 s, and contacts.csv lists every contact (patches by default;
#   --merge-patches writes none, the same series: a ball on a table is one patch);
# - --pair-params: the same two balls, the second pair's k_v 4e7 from its own file (the first
#   keeps --param k_v=1e7): each settles where k_v V = m g, so V_1 / V_2 = 4 (1%); a
#   --pair-params naming bodies without a --contact is a usage error.
set -u
. "$(dirname "$0")/tap.sh"
mujoco_or_skip
scene="$data/ball-on-table.xml"
contact="--contact table=$data/table.vxm ball=$data/ball.vxm --params $data/ball-on-table.params"
R=0.1 M=2 G=9.81 I=0.008 KV=1e7 MU=0.05

# column COL of FILE (series.csv) as "t value" lines
col() {
  awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                     { print $1, $k }' "$2"
}

# figured NAME FILE: FILE's lines go to the log as comments; the case passes when its last
# line is "ok"
figured() {
  sed 's/^/# /' "$2"
  ok "$1" 0 '^ok$' -- tail -n 1 "$2"
}

# the depth h where k_v pi h^2 (R - h / 3) = m g (bisection)
heq=$(awk -v R=$R -v m=$M -v g=$G -v k=$KV 'BEGIN { lo = 0; hi = 0.01
  for (i = 0; i < 200; i++) { h = (lo + hi) / 2
    if (k * 3.141592653589793 * h * h * (R - h / 3) > m * g) hi = h; else lo = h }
  printf "%.15g", lo }')

echo "1..36"
ok "help" 0 '^usage: vxc-mujoco MODEL\.xml --contact' -- "$mj" --help
ok "a missing --contact is a usage error" 2 'no --contact' -- "$mj" "$scene"
ok "an unknown body is named, with the nearest" 2 "no body named 'bal'; did you mean 'ball'" -- \
  "$mj" "$scene" --contact table="$data/table.vxm" bal="$data/ball.vxm" --out "$tmp/e1"
ok "an unknown keyframe is named" 2 "no keyframe 'nope'" -- \
  "$mj" "$scene" $contact --key nope --out "$tmp/e2"
ok "a misspelt keyframe gets the nearest" 2 "no keyframe 'thesi'.*did you mean 'thesis'" -- \
  "$mj" "$scene" $contact --key thesi --out "$tmp/e2"
ok "a missing model file is named" 1 'nope\.vxm' -- \
  "$mj" "$scene" --contact table="$data/table.vxm" ball="$tmp/nope.vxm" --out "$tmp/e3"
ok "a missing MJCF file is named" 1 'nope\.xml' -- \
  "$mj" "$tmp/nope.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" --out "$tmp/e4"

# settling: the final height against R - h
"$mj" "$scene" $contact --voxel 2e-3 --key settle --duration 2 --every 0.01 --out "$tmp/settle" \
  >"$tmp/settle.log" 2>&1
col ball.z "$tmp/settle/series.csv" | tail -n 1 | awk -v z0="$(awk "BEGIN { printf \"%.15g\", $R - $heq }")" '
  { d = $2 - z0; printf "resting height %.10g m, closed form %.10g m\n", $2, z0
    print (d < 1e-6 && d > -1e-6) ? "ok" : "off" }' >"$tmp/r5"
figured "a dropped ball settles at the depth of k_v V = m g (1e-6 m)" "$tmp/r5"

# spin decay: the slope of wz between 0.2 s and 1 s
"$mj" "$scene" $contact --voxel 2e-3 --key spin --duration 1 --every 0.01 --out "$tmp/spin" \
  >"$tmp/spin.log" 2>&1
col ball.wz "$tmp/spin/series.csv" >"$tmp/wz"
awk -v h=$heq -v R=$R -v m=$M -v g=$G -v I=$I -v mu=$MU '
    $1 == 0.2 { w0 = $2 } $1 == 1 { w1 = $2 }
    END { pi = 3.141592653589793
      jn = pi * h^3 * (20 * R * R - 15 * R * h + 3 * h * h) / 30; v = pi * h * h * (R - h / 3)
      want = mu * sqrt(jn / v) * m * g / I; got = (w0 - w1) / 0.8
      print "deceleration", got, "closed form", want
      r = got / want - 1; print (r < 0.02 && r > -0.02) ? "ok" : "off" }' "$tmp/wz" >"$tmp/r6"
figured "spin decays at mu_c r_gyr m g / I (2%)" "$tmp/r6"

# rebound: the highest point after the first impact, from a drop of 0.1 m
"$mj" "$scene" $contact --key drop --param mu_s=0 --param mu_c=0 --param k_v=1e11 --voxel 2e-4 \
  --timestep 1e-5 --duration 0.3 --every 1e-4 --out "$tmp/drop" >"$tmp/drop.log" 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "ball.z") z = i
                                               if ($i == "table~ball.npairs") p = i }; next }
           $p > 0 { hit = 1 } hit && $p == 0 && $z > top { top = $z }
           END { r = (top - 0.1) / 0.1; print "rebound", r, "of the drop, e^2 = 0.25"
                 print (r / 0.25 - 1 < 0.03 && r / 0.25 - 1 > -0.03) ? "ok" : "off" }' \
  "$tmp/drop/series.csv" >"$tmp/r7"
figured "a ball dropped with e_eff = 0.5 rebounds to e^2 of its height (3%)" "$tmp/r7"

# the same drop with the ball on a carriage (a slide along x + z, a slide along z, then a ball
# joint: a kinematic tree whose mass matrix is not diagonal, solved through MuJoCo's
# factorisation dof by dof) against a free ball of the carriage's and the ball's mass: the
# contact sees the same body, so the heights agree to rounding
sed -e 's|<body name="ball" pos="0 0 0.2">|<body name="carriage" pos="0 0 0.1"><joint type="slide" axis="1 0 1"/><joint type="slide" axis="0 0 1"/><inertial pos="0 0 0" mass="0.5" diaginertia="1e-3 1e-3 1e-3"/><body name="ball">|' \
  -e 's|<freejoint name="ball"/>|<joint type="ball"/>|' \
  -e 's|\(<geom name="ball" [^>]*/>\)|\1</body>|' -e '/<key name=/d' \
  -e 's|<keyframe>|<keyframe><key name="drop" qpos="0 0.1 1 0 0 0"/>|' "$scene" >"$tmp/carriage.xml"
sed 's|mass="2"|mass="2.5"|' "$scene" >"$tmp/free.xml"
for s in carriage free; do
  "$mj" "$tmp/$s.xml" $contact --key drop --param mu_s=0 --param mu_c=0 --param k_v=1e11 \
    --voxel 2e-4 --timestep 1e-5 --duration 0.3 --every 1e-4 --out "$tmp/drop-$s" >"$tmp/$s.log" 2>&1
  col ball.z "$tmp/drop-$s/series.csv" >"$tmp/z-$s"
done
paste -d ' ' "$tmp/z-carriage" "$tmp/z-free" | awk '$1 == $3 { n++; d = $2 - $4; d = d < 0 ? -d : d
    if (d > worst) worst = d } END { printf "%d records, largest height difference %.3g m\n", n, worst
    print (n == 3001 && worst < 1e-7) ? "ok" : "off" }' >"$tmp/r7b"
figured "a ball on an articulated carriage drops as a free ball of their mass (1e-7 m)" "$tmp/r7b"

# the thesis's run, MuJoCo at its own steps (2 ms and 0.5 ms) against vxc task, compared at
# the same times: the task records every 0.5 ms, MuJoCo every step
sed 's/(record (every 0.005))/(record (every 5e-4))/' "$data/ball-on-table.vxt" >"$tmp/thesis.vxt"
cp "$data/table.vxm" "$data/ball.vxm" "$tmp/"
"$vxc" task "$tmp/thesis.vxt" --duration 1 --out "$tmp/task" >/dev/null 2>&1
: >"$tmp/r8"
for h in 2e-3 5e-4; do
  "$mj" "$scene" $contact --voxel 2e-3 --key thesis --timestep $h --duration 1 --every $h \
    --out "$tmp/thesis-$h" >"$tmp/thesis.log" 2>&1
  for c in ball.z ball.y ball.wz; do
    # the largest difference at MuJoCo's record times, against the task's span
    tol=0.01
    col $c "$tmp/thesis-$h/series.csv" >"$tmp/a.$c"
    col $c "$tmp/task/series.csv" | awk -v c=$c -v h=$h -v tol=$tol '
      NR == FNR { a[sprintf("%.6f", $1)] = $2; next }
      FNR == 1 { lo = hi = $2 } { lo = $2 < lo ? $2 : lo; hi = $2 > hi ? $2 : hi }
      (k = sprintf("%.6f", $1)) in a { n++; d = a[k] - $2; d = d < 0 ? -d : d
        if (d > dm) { dm = d; tm = $1 } }
      END { printf "step %s: %s largest difference %.4g at t = %s, %.3f%% of its span %.4g (%d times)\n",
              h, c, dm, tm, 100 * dm / (hi - lo), hi - lo, n
            if (n != int(1 / h + 1.5) || !(dm <= tol * (hi - lo))) print "off" }' \
      "$tmp/a.$c" -
  done
done >"$tmp/r8"
grep -q off "$tmp/r8" || echo ok >>"$tmp/r8"
figured "MuJoCo at 2 ms and 0.5 ms agrees with vxc task over the first second (z, y, wz within 1% of their spans)" \
  "$tmp/r8"

# MuJoCo's own contact: the resting ball's normal force is m g
"$mj" "$scene" --contact table="$data/table.vxm" ball="$data/ball.vxm" --native --key settle \
  --duration 1 --every 0.01 --out "$tmp/native" >"$tmp/native.log" 2>&1
col 'table~ball.fn' "$tmp/native/series.csv" | tail -n 1 |
  awk '{ print "fn", $2; r = $2 / ('$M' * '$G') - 1; print (r < 0.01 && r > -0.01) ? "ok" : "off" }' \
  >"$tmp/r9"
figured "native MuJoCo contact holds the ball with m g, read from its contact forces (1%)" "$tmp/r9"
ok "series.csv starts with vxc task's columns" 0 \
  '^t,table\.x,table\.y,table\.z,table\.qw,.*,ball\.wz,table~ball\.V,table~ball\.fn,table~ball\.ft' -- \
  head -n 1 "$tmp/native/series.csv"
"$mj" "$scene" --contact table="$data/table.vxm" ball="$data/ball.vxm" --native --key drop \
  --duration 0.01 --out "$tmp/plot" --plot >/dev/null 2>&1
ok "--plot writes the gnuplot script of heights and contact forces" 0 \
  "height\.png.*ball\.z.*forces\.png.*table~ball\.fn" -- sh -c "tr '\\n' ' ' <'$tmp/plot/plots.gp'"
# the peg scene's first 0.3 s: the carriage (0.5 kg) and the peg (0.1884 kg) on the position
# actuator (1000 N/m toward 40 mm down) and the joint's damping (500 N s/m) follow
# m z'' + c z' + k (z - z_target) = 0, whose slow root -(c - sqrt(c^2 - 4 m k)) / (2 m) sets
# the motion once the fast one (1.4 ms) has died; the peg, 1.5 mm off the axis and tilted
# 2 degrees, clears the 24 mm hole's mouth down to 8 mm (its side reaches x = 11.78 mm of
# 12 mm), so with vxc nothing touches while MuJoCo's convex hull of the block stops it
peg="--contact peg=$data/mesh-peg.vxm block=$data/mesh-hole-block.vxm --params $data/peg-in-hole.params"
"$mj" "$data/peg-in-hole.xml" $peg --voxel 5e-4 --key insert --duration 0.3 --every 0.01 \
  --out "$tmp/peg" >"$tmp/peg.log" 2>&1
col 'peg~block.npairs' "$tmp/peg/series.csv" | awk '$2 != 0 { n++ } END { print n + 0 }' \
  >"$tmp/touching"
col peg.z "$tmp/peg/series.csv" | tail -n 1 | awk -v n="$(cat "$tmp/touching")" '{ m = 0.6884
  c = 500; k = 1000; s = (c - sqrt(c * c - 4 * m * k)) / (2 * m)
  want = 0.01 - 0.04 * (1 - exp(-s * 0.3)); d = $2 - want
  printf "peg tip at 0.3 s %.6f m, free motion %.6f m; %d records in contact\n", $2, want, n
  print (d < 2e-4 && d > -2e-4 && n == 0) ? "ok" : "off" }' >"$tmp/r15"
figured "with vxc the peg enters the non-convex block's hole untouched, on its free motion" "$tmp/r15"
"$mj" "$data/peg-in-hole.xml" $peg --native --key insert --duration 0.3 --every 0.01 \
  --out "$tmp/pegn" >"$tmp/pegn.log" 2>&1
col peg.z "$tmp/pegn/series.csv" | tail -n 1 |
  awk '{ print "native peg tip at 0.3 s", $2, "m"; print ($2 > -2e-4) ? "ok" : "off" }' >"$tmp/r16"
figured "MuJoCo's convex hull of the block stops the peg at the mouth" "$tmp/r16"

# a spring far too stiff for the step: MuJoCo finds the state non-finite and would reset it
cat >"$tmp/diverge.xml" <<'EOT'
<mujoco><option timestep="0.01"/>
  <worldbody><body name="a"/>
    <body name="b" pos="0 0 1"><joint type="slide" axis="0 0 1" stiffness="1e9"/>
      <geom type="sphere" size="0.1" mass="1" contype="0" conaffinity="0"/></body></worldbody>
  <keyframe><key name="k" qpos="0.1"/></keyframe></mujoco>
EOT
ok "a run MuJoCo finds unstable stops with its warning and exit 1" 1 'MuJoCo: .*unstable' -- \
  "$mj" "$tmp/diverge.xml" --key k --native --contact a="$data/table.vxm" b="$data/ball.vxm" \
  --out "$tmp/diverge"
# ---- the command line ----------------------------------------------------------------
ok "--version" 0 '^vxc-mujoco [0-9]' -- "$mj" --version
ok "a misspelt option gets the nearest one" 2 "unknown option '--durration'; did you mean '--duration'" -- \
  "$mj" "$scene" $contact --durration 1 --out "$tmp/typo"
"$mj" "$scene" $contact --key settle --duration 0.01 --out "$tmp/keep" >/dev/null 2>&1
cksum <"$tmp/keep/series.csv" >"$tmp/keep.sum"
"$mj" "$scene" $contact --key thesi --duration 0.01 --out "$tmp/keep" >/dev/null 2>&1
echo "status $?" >"$tmp/r19"
cksum <"$tmp/keep/series.csv" | cmp -s - "$tmp/keep.sum" && echo ok >>"$tmp/r19"
figured "a usage error (--key thesi) leaves the previous run's series.csv untouched" "$tmp/r19"
ok "--native without --contact runs MuJoCo's contact on every body" 0 'MuJoCo contact' -- \
  "$mj" "$scene" --native --key settle --duration 0.05 --out "$tmp/nat"
ok "... and records every body" 0 '^t,table\.x,.*,ball\.wz,E\.kinetic' -- head -n 1 "$tmp/nat/series.csv"

# ---- the stability map's corners -------------------------------------------------------
# a scene of the ball at rest, spinning and rolling at the depth of k_v V = m g for k_v
rest_scene() {
  z=$(awk -v R=$R -v m=$M -v g=$G -v k="$1" 'BEGIN { lo = 0; hi = 0.05
    for (i = 0; i < 200; i++) { h = (lo + hi) / 2
      if (k * 3.141592653589793 * h * h * (R - h / 3) > m * g) hi = h; else lo = h }
    printf "%.15g", R - lo }')
  { sed -e '/<keyframe>/,/<\/keyframe>/d' -e '/<\/mujoco>/d' -e 's/timestep="1e-4"/timestep="2e-3"/' \
      "$scene"
    printf '<keyframe>\n<key name="rest" qpos="0 0 %s 1 0 0 0"/>\n' "$z"
    printf '<key name="spin" qpos="0 0 %s 1 0 0 0" qvel="0 0 0 0 0 10"/>\n' "$z"
    printf '<key name="roll" qpos="-0.4 0 %s 1 0 0 0" qvel="0.5 0 0 0 5 0"/>\n' "$z"
    printf '<key name="drop" qpos="0 0 0.2 1 0 0 0"/>\n'
    printf '</keyframe>\n</mujoco>\n'; } >"$tmp/rest-$1.xml"
  echo "$R $z" | awk '{ printf "%.15g", $1 - $2 }'
}
bristle="--param sigma0=1e4 --param sigma1=63.9"
: >"$tmp/r22"
for kv in 1e7 1e11; do
  rest_scene $kv >/dev/null
  for e in 0.1 0.95; do
    for h in 2e-3 5e-4; do
      "$mj" "$tmp/rest-$kv.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" \
        --param k_v=$kv --param e_eff=$e $bristle --key rest --timestep $h --duration 1 \
        --every $h --quiet --out "$tmp/c-$kv-$e-$h" >/dev/null 2>&1
      col 'table~ball.fn' "$tmp/c-$kv-$e-$h/series.csv" | awk -v c="k_v $kv e_eff $e step $h" -v w=$(awk "BEGIN { print $M * $G }") '
        $1 >= 0.3 { d = $2 / w - 1; d = d < 0 ? -d : d; if (d > dm) dm = d; n++ }
        END { printf "%s: largest |fn / m g - 1| %.3g over %d steps\n", c, dm, n
              if (dm > 0.01 || n < 300) print "off" }'
    done
  done
done >"$tmp/r22"
grep -q off "$tmp/r22" || echo ok >>"$tmp/r22"
figured "resting at 2 ms and 0.5 ms, k_v 1e7 and 1e11, e_eff 0.1 and 0.95: fn within 1% of m g" "$tmp/r22"

heq9=$(rest_scene 1e9)
for h in 2e-3 5e-4; do
  "$mj" "$tmp/rest-1e9.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" --param k_v=1e9 \
    --param e_eff=0.2 $bristle --key spin --timestep $h --duration 1 --every $h --quiet \
    --out "$tmp/spin-$h" >/dev/null 2>&1
  col ball.wz "$tmp/spin-$h/series.csv" | awk -v h=$heq9 -v R=$R -v m=$M -v g=$G -v I=$I -v mu=$MU -v s=$h '
    $1 >= 0.3 && !t0 { t0 = $1; w0 = $2 } { t1 = $1; w1 = $2 }
    END { pi = 3.141592653589793
      jn = pi * h^3 * (20 * R * R - 15 * R * h + 3 * h * h) / 30; v = pi * h * h * (R - h / 3)
      want = mu * sqrt(jn / v) * m * g / I; got = (w0 - w1) / (t1 - t0)
      printf "step %s: spin-down %.6g rad/s^2, closed form %.6g\n", s, got, want
      r = got / want - 1; if (r > 0.02 || r < -0.02) print "off" }'
done >"$tmp/r23"
grep -q off "$tmp/r23" || echo ok >>"$tmp/r23"
figured "spinning at 2 ms and 0.5 ms (k_v 1e9, e_eff 0.2): spin-down within 2% of mu_c r_gyr m g / I" "$tmp/r23"

"$mj" "$tmp/rest-1e9.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" --param k_v=1e9 \
  --param e_eff=0.2 $bristle --param rolling=1 --param eta_r=1e-3 --key roll --duration 1 \
  --every 2e-3 --quiet --out "$tmp/roll" >/dev/null 2>&1
col ball.vx "$tmp/roll/series.csv" | awk -v R=$R -v g=$G '
  $1 >= 0.3 && !t0 { t0 = $1; v0 = $2 } { t1 = $1; v1 = $2 }
  END { want = 5 * g * 1e-3 / (7 * R); got = (v0 - v1) / (t1 - t0)
    printf "rolling deceleration %.6g m/s^2, closed form %.6g\n", got, want
    r = got / want - 1; print (r < 0.02 && r > -0.02) ? "ok" : "off" }' >"$tmp/r24"
figured "rolling at 2 ms (rate-independent, eta_r 1 mm): deceleration within 2% of 5 g eta_r / (7 R)" "$tmp/r24"

# the exact rebound of the model with gravity: the ball dropped from 0.1 m meets the table at
# u = sqrt(2 g 0.1); in contact, m h'' = m g - k_v V(h) (1 + a h'), V(h) = pi h^2 (R - h / 3),
# a = d / (e_eff u), d the root of the impact equation (vxc task's `d` for e_eff): without
# gravity the exit speed is e_eff u for any V(h) (the equation separates), with it the ball
# leaves slower by about a third of g T_c (T_c the contact's time). Integrated here by RK4 at
# 20000 steps over the contact: "REB TC", the height the rebound's energy reaches over e^2
# of the drop's, and T_c (0 0 when the ball never leaves)
exact_rebound() {
  awk -v kv="$1" -v e="$2" -v R=$R -v m=$M -v g=$G 'function phi(x) { return x - log(1 + x) }
    function acc(h, w,   V, f) { V = h > 0 ? 3.141592653589793 * h * h * (R - h / 3) : 0
      f = kv * V * (1 + a * w); return g - (f > 0 ? f : 0) / m }
    BEGIN { u = sqrt(2 * g * 0.1); lo = 0; hi = 1
      for (i = 0; i < 200 && e < 1; i++) { d = (lo + hi) / 2
        if (phi(d / e) - phi(-d) > 0) lo = d; else hi = d }
      d = e < 1 ? lo : 0; a = d / (e * u)
      hm = (3 * m * u * u / (2 * kv * 3.141592653589793 * R)) ^ (1 / 3); dt = 12 * hm / u / 20000
      h = 0; w = u; t = 0
      while (t < 40 * hm / u) {
        k1h = w; k1w = acc(h, w); k2h = w + dt / 2 * k1w; k2w = acc(h + dt / 2 * k1h, w + dt / 2 * k1w)
        k3h = w + dt / 2 * k2w; k3w = acc(h + dt / 2 * k2h, w + dt / 2 * k2w)
        k4h = w + dt * k3w; k4w = acc(h + dt * k3h, w + dt * k3w)
        hn = h + dt / 6 * (k1h + 2 * k2h + 2 * k3h + k4h); wn = w + dt / 6 * (k1w + 2 * k2w + 2 * k3w + k4w)
        if (hn <= 0) { s = h / (h - hn); wo = w + s * (wn - w)
          printf "%.6g %.6g\n", wo * wo / (u * u * e * e), t + s * dt; exit }
        h = hn; w = wn; t += dt }
      print "0 0" }'
}
# dropped 0.1 m (no friction) at 2 ms and 0.5 ms: the height the rebound's energy reaches
# against the exact rebound, for k_v 1e7, 1e9, 1e11 and e_eff 0.1, 0.5, 0.95, and against
# e_eff^2 of the drop where gravity's impulse over the contact is under 2% of the rebound's
# momentum (g T_c < 0.02 e_eff u)
for kv in 1e7 1e9 1e11; do
  rest_scene $kv >/dev/null
  for e in 0.1 0.5 0.95; do
    set -- $(exact_rebound $kv $e)
    ref=$1 tc=$2
    for h in 2e-3 5e-4; do
      "$mj" "$tmp/rest-$kv.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" \
        --param k_v=$kv --param e_eff=$e --param mu_s=0 --param mu_c=0 --key drop \
        --timestep $h --duration 0.7 --every $h --quiet --out "$tmp/drop-$kv-$e-$h" >/dev/null 2>&1
      tol=0.03
      awk -F, -v e=$e -v kv=$kv -v h=$h -v ref=$ref -v tc=$tc -v g=$G -v R=$R -v tol=$tol '
        NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "ball.z") z = i
          if ($i == "ball.vz") v = i; if ($i == "table~ball.npairs") p = i }; next }
        { en = $z - R + $v * $v / (2 * g) } $p == 0 && !hit { a0 = en } $p > 0 { hit = 1 }
        hit && $p == 0 && !a1 { a1 = en }
        END { u = sqrt(2 * g * 0.1); r = a1 / (e * e * a0); share = g * tc / (e * u)
          printf "k_v %s e_eff %s step %s: rebound %.4g of e^2 h, exact %.4g (T_c %.3g ms, g T_c / (e u) %.3g): %+.2f%%\n",
            kv, e, h, r, ref, 1e3 * tc, share, (ref > 0 ? 100 * (r / ref - 1) : 0)
          if (ref > 0 && (r / ref - 1 > tol || r / ref - 1 < -tol)) print "off"
          if (ref > 0 && share < 0.02 && (r - 1 > 0.03 || r - 1 < -0.03)) print "off"
          if (ref == 0 && a1 != 0) print "off" }' "$tmp/drop-$kv-$e-$h/series.csv"
    done
  done
done >"$tmp/r25"
grep -q off "$tmp/r25" || echo ok >>"$tmp/r25"
figured "dropped at 2 ms and 0.5 ms, k_v 1e7 to 1e11, e_eff 0.1 to 0.95: rebound within 3% of the exact one (with gravity), of e^2 h where gravity's share is under 2%" "$tmp/r25"

ok "the explicit coupling of the same spin at 2 ms creates energy: energy-error, exit 4" 4 \
  'energy created' -- "$mj" "$tmp/rest-1e9.xml" --contact table="$data/table.vxm" \
  ball="$data/ball.vxm" --param k_v=1e9 --param e_eff=0.2 $bristle --key spin --duration 1 \
  --quiet --explicit --out "$tmp/expl"
ok "... its summary says so and its series.csv is kept" 0 '"status": "energy-error"' -- \
  sh -c "cat '$tmp/expl/summary.json'; test \$(wc -l <'$tmp/expl/series.csv') -gt 2"

# ---- several pairs, patches ---------------------------------------------------------------
z7=$(rest_scene 1e7)
sed -e 's|<body name="ball" pos="0 0 0.2">|<body name="ball" pos="-0.2 0 0.2">|' \
  -e 's|</worldbody>|<body name="ball2" pos="0.2 0 0.2"><freejoint/><inertial pos="0 0 0" mass="2" diaginertia="0.008 0.008 0.008"/><geom type="sphere" size="0.1"/></body></worldbody>|' \
  -e "s|<key name=\"rest\" qpos=\"0 0 \([0-9.]*\) 1 0 0 0\"/>|<key name=\"rest\" qpos=\"-0.2 0 \1 1 0 0 0 0.2 0 \1 1 0 0 0\"/>|" \
  -e '/key name="spin"/d' -e '/key name="roll"/d' -e '/key name="drop"/d' "$tmp/rest-1e7.xml" >"$tmp/two.xml"
echo off >"$tmp/r27"
"$mj" "$tmp/two.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" \
  --contact table="$data/table.vxm" ball2="$data/ball.vxm" --param k_v=1e7 --key rest \
  --duration 1 --every 0.01 --quiet --out "$tmp/two" >"$tmp/two.log" 2>&1
for c in 'table~ball.fn' 'table~ball2.fn'; do
  col "$c" "$tmp/two/series.csv" | tail -n 1 | awk -v c="$c" -v w=$(awk "BEGIN { print $M * $G }") '
    { printf "%s %.6g N\n", c, $2; r = $2 / w - 1; if (r > 0.01 || r < -0.01) print "off" }'
done >>"$tmp/r27"
[ -s "$tmp/two/series.csv" ] && sed -i '1d' "$tmp/r27"
awk -F, -v z="$(awk "BEGIN { printf \"%.15g\", $R - $z7 }")" '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { for (k = 0; k < 2; k++) { b = k ? "ball2" : "ball"; dx = $c[b ".x"] - (k ? 0.2 : -0.2)
      dz = $c[b ".z"] - z; d = dx * dx + dz * dz; if (d > worst) worst = d } }
  END { printf "largest distance of a ball from its resting place over 1 s %.3g m\n", sqrt(worst)
    if (!(worst < 1e-12)) print "off" }' "$tmp/two/series.csv" >>"$tmp/r27"
awk -F, 'NR > 1 && $1 == 1 { n++ } END { print n, "contacts in contacts.csv at t = 1 s"
  if (n != 2) print "off" }' "$tmp/two/contacts.csv" >>"$tmp/r27"
grep -q off "$tmp/r27" || echo ok >>"$tmp/r27"
figured "two pairs in one bridge hold their balls with m g where they rest over 1 s; contacts.csv lists both" "$tmp/r27"
ok "contacts.csv's columns" 0 '^t,pair,contact,cell_a,cell_b,patch,V,px,py,pz,nx,ny,nz,fn,Fx' -- \
  head -n 1 "$tmp/two/contacts.csv"
ok "the summary keeps the energy budget" 0 '"energy": \{"kinetic": .*"max_energy_created"' -- \
  cat "$tmp/two/summary.json"
# the step's timings are nested intervals of one clock: the queries within vxc's calls, vxc's
# and MuJoCo's calls within the step, bridge_overhead the step's rest over the step
tr ',' '\n' <"$tmp/two/summary.json" | awk -F': ' '/_wall_s|bridge_overhead/ {
    gsub(/[" {}]/, "", $1); v[$1] = $2 + 0; print $1, $2 }
  END { s = v["step_wall_s"]; x = v["vxc_wall_s"]; q = v["query_wall_s"]; m = v["mujoco_wall_s"]
    o = v["bridge_overhead"]; d = o - (s - x - m) / s
    print (s > 0 && q > 0 && m > 0 && q <= x && x + m <= s && d * d < 1e-18) ? "ok" : "off" }' \
  >"$tmp/r30"
figured "the summary's step times: queries within vxc's calls, vxc's and MuJoCo's within the step" \
  "$tmp/r30"
"$mj" "$tmp/two.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" \
  --contact table="$data/table.vxm" ball2="$data/ball.vxm" --param k_v=1e7 --key rest \
  --duration 1 --every 0.01 --merge-patches --quiet --out "$tmp/two-m" >"$tmp/two-m.log" 2>&1
ok "--merge-patches: no contacts.csv, the same series (one patch a pair)" 0 '^same$' -- \
  sh -c "test ! -e '$tmp/two-m/contacts.csv' && cmp -s '$tmp/two/series.csv' '$tmp/two-m/series.csv' && echo same"

echo "k_v 4e7" >"$tmp/stiff.params"
z40=$(rest_scene 4e7)
sed "s|<key name=\"rest\" qpos=\"[^\"]*\"/>|<key name=\"rest\" qpos=\"-0.2 0 $(awk "BEGIN { printf \"%.15g\", $R - $z7 }") 1 0 0 0 0.2 0 $(awk "BEGIN { printf \"%.15g\", $R - $z40 }") 1 0 0 0\"/>|" \
  "$tmp/two.xml" >"$tmp/two-apart.xml"
"$mj" "$tmp/two-apart.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" \
  --contact table="$data/table.vxm" ball2="$data/ball.vxm" --param k_v=1e7 \
  --pair-params ball2 table "$tmp/stiff.params" --key rest --duration 0.5 --every 0.01 --quiet \
  --out "$tmp/pp" >"$tmp/pp.log" 2>&1
v1=$(col 'table~ball.V' "$tmp/pp/series.csv" | tail -n 1 | cut -d' ' -f2)
v2=$(col 'table~ball2.V' "$tmp/pp/series.csv" | tail -n 1 | cut -d' ' -f2)
awk -v a="$v1" -v b="$v2" -v w=$(awk "BEGIN { print $M * $G }") 'BEGIN {
  printf "V_1 %.6g m^3 (m g / k_v: %.6g), V_2 %.6g m^3 (%.6g), ratio %.6g\n", a, w / 1e7, b, w / 4e7, a / b
  r = a / b / 4 - 1; print (b > 0 && r < 0.01 && r > -0.01) ? "ok" : "off" }' >"$tmp/r31"
figured "--pair-params gives one pair its own k_v: V_1 / V_2 = 4 (1%)" "$tmp/r31"
ok "--pair-params without such a --contact is a usage error" 2 "no --contact between these bodies" -- \
  "$mj" "$tmp/two.xml" --contact table="$data/table.vxm" ball="$data/ball.vxm" \
  --pair-params ball2 table "$tmp/stiff.params" --key rest --out "$tmp/pp2"

[ "$failed" -eq 0 ]
