#!/bin/sh
# test_vtk.sh: vxc metrics --vtk and --vtk-solids, the files read back by VTK's own XML
# readers (python3-vtk9) in vtk_check.py (TAP output for Automake's driver). Skipped when
# VTK's Python bindings are missing.
set -u
. "$(dirname "$0")/tap.sh"

check="${VXC_TESTDIR:-$(dirname "$0")}/vtk_check.py"
py=""
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import vtkmodules.vtkIOXML' >/dev/null 2>&1; then
    py=$p
    break
  fi
done
if [ -z "$py" ]; then
  echo "1..0 # SKIP VTK's Python bindings (Debian python3-vtk9) not found"
  exit 0
fi

echo "1..21"
# the total volume of `vxc mass --json`
mass() { "$vxc" mass "$1" --json --rtol 1e-7 | sed 's/.*"total": {"volume": //; s/,.*//'; }

# ball r = 0.1 m centred 9 mm above the top of a 40 mm table: the slab -0.04 < z < 0 of the
# ball, two spherical caps: V = cap(0.091) - cap(0.051), cap(h) = pi h^2 (3 r - h) / 3
v_ball=$(awk 'function cap(h) { return 3.141592653589793 * h * h * (0.3 - h) / 3 }
  BEGIN { printf "%.17g", cap(0.091) - cap(0.051) }')
ok "metrics --vtk writes the region (rtol rule)" 0 "contact" -- "$vxc" metrics "$data/ball.vxm" \
  "$data/table.vxm" --pose-a "0 0 0.009" --json --vtk "$tmp/r1.vtu"
"$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.009" --json \
  --vtk "$tmp/r1.vtu" >"$tmp/m1.json"
ok "the region read back: cells sum to V, bracket, estimate, leaves; cubes hold the cap" 0 \
  '^ok: whole boxes' -- "$py" "$check" region "$tmp/r1.vtu" "$tmp/m1.json" "$v_ball"

# the fixed-voxel rule integrates each leaf once (no rounds): the same sums
"$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.009" --voxel 0.004 --json \
  --vtk "$tmp/r2.vtu" >"$tmp/m2.json"
ok "the region of --voxel 4 mm read back" 0 '^ok: whole boxes' -- \
  "$py" "$check" region "$tmp/r2.vtu" "$tmp/m2.json" "$v_ball"

# several cell pairs of concave cells: the peg shifted 1 mm into the hole's walls, split
# into patches (the octree's region: the rod-in-bore quadrature, one leaf a pair, off)
"$vxc" metrics "$data/peg.vxm" "$data/hole-block.vxm" --pose-a "0.001 0 -0.03" --json \
  --patches --no-closed-form --vtk "$tmp/r3.vtu" >"$tmp/m3.json"
ok "peg in hole-block: four pairs, each pair's cells sum to its V" 0 'pair 3: [0-9]+ leaf cells' \
  -- "$py" "$check" region "$tmp/r3.vtu" "$tmp/m3.json"

# the same pairs measured by quadrature (the rod and the cone in the bore): each shown by the
# octree's coarse region, whose bracket must hold the quadrature's V
"$vxc" metrics "$data/peg.vxm" "$data/hole-block.vxm" --pose-a "0.001 0 -0.03" --json \
  --patches --vtk "$tmp/r3q.vtu" >"$tmp/m3q.json"
ok "quadrature pairs: the coarse octree's cells bracket each pair's V" 0 \
  'pair 3: the coarse cells. bracket .* holds its V' -- "$py" "$check" region "$tmp/r3q.vtu" "$tmp/m3q.json"

# a mesh cell against quadric cells, and the same with several threads asked (a visitor runs
# the query on one thread: the same figures, but for the penetration, which the kept region
# bounds more tightly)
"$vxc" metrics "$data/hole-block.vxm" "$data/mesh-icosphere.vxm" --json --threads 2 \
  --vtk "$tmp/r4.vtu" --vtk-solids "$tmp/s4.vtp" --vtk-tol 0.002 >"$tmp/m4.json"
ok "hole-block against a mesh ball: the region read back" 0 'pair 3: [0-9]+ leaf cells' \
  -- "$py" "$check" region "$tmp/r4.vtu" "$tmp/m4.json"
"$vxc" metrics "$data/hole-block.vxm" "$data/mesh-icosphere.vxm" --json >"$tmp/m4b.json"
ok "the figures with and without --vtk are the same" 0 '^same$' -- \
  sh -c "sed 's/\"\(time_ms\|penetration[_a-z]*\)\": [-0-9.e+]*//g' '$tmp/m4.json' >'$tmp/a'; \
         sed 's/\"\(time_ms\|penetration[_a-z]*\)\": [-0-9.e+]*//g' '$tmp/m4b.json' >'$tmp/b'; \
         cmp '$tmp/a' '$tmp/b' && echo same"

# surfaces: the volume the triangles enclose (divergence theorem, so only if they face
# outward): the hole-block's sampled quadric cells at 2 mm within 0.5 % of `vxc mass`
# (-0.22 % measured: sharp edges bevelled), the mesh ball's own triangles to the printed digits
ok "the surfaces read back enclose the solids' volumes" 0 'solid 1 encloses' -- \
  "$py" "$check" solids "$tmp/s4.vtp" "$(mass "$data/hole-block.vxm")" \
  "$(mass "$data/mesh-icosphere.vxm")" 0.005
"$vxc" metrics "$data/ball.vxm" "$data/mesh-icosphere.vxm" --pose-a "0.3 0 0" \
  --vtk-solids "$tmp/s5.vtp" --vtk-tol 0.004 >/dev/null
ok "apart solids are written too; the sampled ball within 1 % of 4/3 pi r^3" 0 \
  'solid 1 encloses' -- "$py" "$check" solids "$tmp/s5.vtp" 0.0041887902047863905 \
  "$(mass "$data/mesh-icosphere.vxm")" 0.01

# a task's frames: a ball dropped (turned 45 degrees about x) on the table, 6 records
cat >"$tmp/drop.vxt" <<EOF
(task ball-drop
  (gravity 0 0 -9.81)
  (duration 0.2)
  (integrator adaptive (method bs3) (rtol 1e-6) (atol 1e-9) (max-step 2e-3))
  (record (every 0.04))
  (body table (model "$data/table.vxm") (fixed) (pose 0 0 0))
  (body ball (model "$data/ball.vxm") (free (mass 2) (inertia 0.008 0.008 0.008))
    (pose 0.01 0.02 0.2 0.9238795 0.3826834 0 0) (velocity 0 0.3 0 0 0 3))
  (contact table ball (params (k_v 1e7)) (voxel 2e-3)))
EOF
ok "task --vtk announces its frames, their bytes and folder before the run" 0 \
  "ParaView frames: 6 \\(one every 0.04 s\\) into $tmp/drop/vtk/bodies.pvd .*about [0-9.]+ kB \\(table written once" \
  -- "$vxc" task "$tmp/drop.vxt" --out "$tmp/drop" --vtk "$tmp/drop/vtk" --vtk-tol 0.02
ok "the frames play the series: times, the contact's V, the ball's centre" 0 \
  'every body frame is its first' -- "$py" "$check" frames "$tmp/drop/vtk" \
  "$tmp/drop/series.csv" 'table~ball' ball
ok "... the fixed table written once and shown at every record" 0 'table is written once' -- \
  "$py" "$check" frames "$tmp/drop/vtk" "$tmp/drop/series.csv" 'table~ball' ball table
ok "... binary: zlib-compressed appended data, no ASCII arrays" 0 '^binary$' -- sh -c \
  "grep -L 'compressor=\"vtkZLibDataCompressor\"' '$tmp/drop/vtk/'*.vt? | grep -q . && exit 1; \
   grep -l 'format=\"ascii\"' '$tmp/drop/vtk/'*.vt? | grep -q . && exit 1; echo binary"

# the bundled peg-in-hole's first 0.4 s, recorded every 20 ms: the chamfer's frames are
# measured by quadrature and show the octree's coarse region; the block written once
sed -e 's|(every 0.005)|(every 0.02)|' -e "s|\"hole-block.vxm\"|\"$data/hole-block.vxm\"|" \
  -e "s|\"peg.vxm\"|\"$data/peg.vxm\"|" "$data/peg-in-hole.vxt" >"$tmp/peg.vxt"
ok "peg-in-hole --vtk: 21 frames" 0 'ParaView frames: 21 ' -- "$vxc" task "$tmp/peg.vxt" \
  --duration 0.4 --out "$tmp/peg" --vtk "$tmp/peg/vtk" --vtk-tol 0.004
ok "... its quadrature frames' coarse cells bracket the series' V; the block written once" 0 \
  'block is written once' -- "$py" "$check" frames "$tmp/peg/vtk" "$tmp/peg/series.csv" \
  'block~peg' - block
ok "... and there are such frames" 0 'agrees with the series \([1-9][0-9]* of them' -- \
  "$py" "$check" frames "$tmp/peg/vtk" "$tmp/peg/series.csv" 'block~peg' -

# --max-output bounds the frames: refused before the run when the bodies alone pass it (the
# output folder untouched), else the frames stop where the next would pass it, the run
# goes on and the exit status is 1
ok "frames that would pass --max-output: refused before the run" 1 \
  '6 frames would write about .* more than --max-output \(50 kB\)' -- \
  "$vxc" task "$tmp/drop.vxt" --out "$tmp/refused" --vtk "$tmp/refused/vtk" --vtk-tol 0.02 \
  --max-output 5e4
ok "... nothing written" 0 '^untouched$' -- sh -c "[ ! -e '$tmp/refused' ] && echo untouched"
# the octree's region (closed forms off) at the contact's record outgrows the estimate
sed 's/(voxel 2e-3)/(voxel 2e-3) (closed-form off)/' "$tmp/drop.vxt" >"$tmp/drop-octree.vxt"
ok "frames past --max-output during the run: a warning, the run completes, exit 1" 1 \
  'warning: the ParaView frames stop at t = 0.16 s' -- "$vxc" task \
  "$tmp/drop-octree.vxt" --out "$tmp/cut" --vtk "$tmp/cut/vtk" --vtk-tol 0.05 --max-output 1.5e5
ok "... the run completed; the series plays the 4 frames written, within the bound" 0 \
  '^4 frames, within$' -- sh -c "grep -q '\"status\": \"completed\"' '$tmp/cut/summary.json' && \
   n=\$(grep -c DataSet '$tmp/cut/vtk/contact.pvd'); b=\$(cat '$tmp/cut/vtk/'*.vt? | wc -c); \
   [ \$b -le 150000 ] && echo \"\$n frames, within\""

ok "an unwritable --vtk file is an error naming it" 1 'nodir/r.vtu' -- "$vxc" metrics \
  "$data/ball.vxm" "$data/table.vxm" --vtk "$tmp/nodir/r.vtu"
exit $((failed > 0))
