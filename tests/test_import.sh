#!/bin/sh
# test_import.sh: vxc import (STEP through OpenCASCADE) on parts that vxc-stepgen writes with
# OCCT, held against the closed-form volumes vxc-stepgen states from the parts' dimensions
# (TAP output for Automake's driver). Skipped when vxc was built without OpenCASCADE.
set -u
. "$(dirname "$0")/tap.sh"

tools=$(dirname "$vxc")
gen="$tools/vxc-stepgen"
if [ ! -x "$gen" ] || [ ! -x "$tools/vxc-import" ]; then
  echo "1..0 # SKIP vxc-import not built (OpenCASCADE not found by configure)"
  exit 0
fi

exact_parts="drilled-block stepped-shaft cone-peg torus-ring keyway-shaft peg hole-block cross-bore"
echo "1..$((1 + 4 * 8 + 6 + 7 + 3))"
ok "vxc-stepgen writes the parts" 0 '^9$' -- sh -c "'$gen' '$tmp' && ls '$tmp'/*.step | wc -l | grep -x 9"
"$gen" --list >"$tmp/list"

# relative difference of two numbers within a bound: close A B REL
close() {
  awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = (a - b) / b; print "relative difference", d
    exit !(d <= r && d >= -r) }'
}
# the report's columns for a solid: became, cells, exact, mesh, OCCT
row() { awk -v n="$1" '$1 == n { print $2, $3, $4, $5, $6 }' "$2"; }
# a number of the "total" object of `vxc mass --json`
total() { sed 's/.*"total": {//' "$1" | grep -Eo "\"$2\": [-0-9.e+]+" | head -n 1 | sed 's/.*: //'; }

for p in $exact_parts; do
  cf=$(awk -v n="$p" '$1 == n { print $2 }' "$tmp/list")
  ok "$p imports as exact cells" 0 "^$p +exact " -- "$vxc" import "$tmp/$p.step" --exact -o "$tmp/$p.vxm"
  "$vxc" import "$tmp/$p.step" -o "$tmp/$p.vxm" >"$tmp/report"
  set -- $(row "$p" "$tmp/report")
  # the closed form of the cells written (the importer's cross-section areas) against the
  # generator's formula from the dimensions, and against OCCT's BRepGProp volume
  ok "$p: cells' volume $3 is the closed form $cf to 1e-9" 0 'difference' -- close "$3" "$cf" 1e-9
  ok "$p: and OCCT's volume $5 (asked to 1e-10) to 1e-9" 0 'difference' -- close "$5" "$cf" 1e-9
  # what vxc reads from the model file: 0.5 mm leaves, certified bracket around the closed
  # form, estimate within 1e-5 (the largest error at this leaf size is the torus's, 2e-6)
  "$vxc" mass "$tmp/$p.vxm" --voxel 5e-4 --json >"$tmp/mass.json"
  v=$(total "$tmp/mass.json" volume) lo=$(total "$tmp/mass.json" volume_lo) hi=$(total "$tmp/mass.json" volume_hi)
  ok "$p: vxc mass $v in [$lo, $hi] holds $cf, within 1e-5" 0 'difference' -- \
    awk -v v="$v" -v lo="$lo" -v hi="$hi" -v c="$cf" 'BEGIN { d = (v - c) / c; print "relative difference", d
      exit !(lo <= c && c <= hi && d < 1e-5 && d > -1e-5) }'
done

# the cells are named after the STEP solid; a stack of slabs is numbered from the bottom
ok "cells are named after the solid" 0 '\(cell peg-1 .*\(cone ' -- sh -c "tr '\n' ' ' <'$tmp/peg.vxm'"
ok "a pocket is the complement of a box" 0 '\(cell keyway-shaft-2 .*\(cylinder 0\.012\) \(not \(move .*\(box ' -- cat "$tmp/keyway-shaft.vxm"

# the free-form part: a mesh whose volume is within area x deflection of OCCT's
ok "the B-spline part becomes a mesh and says why" 0 '^vase +mesh .*B-spline' -- "$vxc" import "$tmp/vase.step"
set -- $(row vase "$tmp/out")
vmesh=$4 vocc=$5
area=$("$vxc" info "$tmp/vase.vxm" | grep -Eo 'area [0-9.e+-]+' | sed 's/area //')
ok "vase: mesh $vmesh within area $area x 1e-4 m of OCCT $vocc" 0 'difference' -- \
  awk -v m="$vmesh" -v o="$vocc" -v a="$area" 'BEGIN { d = m - o; print "difference", d; if (d < 0) d = -d; exit !(d <= a * 1e-4) }'
"$vxc" import "$tmp/vase.step" --deflection 1e-5 -o "$tmp/vase-fine.vxm" >"$tmp/fine"
set -- $(row vase "$tmp/fine")
ok "vase: a tenth of the deflection, within area x 1e-5 m" 0 'difference' -- \
  awk -v m="$4" -v o="$5" -v a="$area" 'BEGIN { d = m - o; print "difference", d; if (d < 0) d = -d; exit !(d <= a * 1e-5) }'
ok "--exact refuses the B-spline part" 1 'vase\.step: 1 solid cannot become exact' -- \
  "$vxc" import "$tmp/vase.step" --exact -o "$tmp/refused.vxm"

# bad input: a message naming the file, exit 1
printf 'solid cube\nendsolid\n' >"$tmp/not.step"
ok "not a STEP file" 1 'not\.step: not a STEP file' -- "$vxc" import "$tmp/not.step"
head -c 3000 "$tmp/peg.step" >"$tmp/cut.step"
ok "a truncated STEP file" 1 'cut\.step: .*truncated' -- "$vxc" import "$tmp/cut.step"
"$gen" --sheet "$tmp/sheet.step"
ok "a STEP file without a solid" 1 'sheet\.step: no solid' -- "$vxc" import "$tmp/sheet.step"
ok "a missing file" 1 'nothere\.step: cannot open' -- "$vxc" import "$tmp/nothere.step"
ok "--mesh and --exact together are a usage error" 2 'exclude' -- "$vxc" import "$tmp/peg.step" --mesh --exact
ok "a bad deflection is a usage error" 2 'deflection' -- "$vxc" import "$tmp/peg.step" --deflection -1
ok "--mesh makes a mesh cell that vxc reads" 0 'ok' -- \
  sh -c "'$vxc' import '$tmp/peg.step' --mesh -o '$tmp/peg-mesh.vxm' >/dev/null && '$vxc' check '$tmp/peg-mesh.vxm'"
# --density: the mass is the density times the closed-form volume (0.5 mm leaves, 1e-5)
cf=$(awk '$1 == "peg" { print $2 }' "$tmp/list")
"$vxc" import "$tmp/peg.step" --density 7850 -o "$tmp/peg-steel.vxm" >/dev/null
"$vxc" mass "$tmp/peg-steel.vxm" --voxel 5e-4 --json >"$tmp/mass.json"
ok "--density 7850: the peg's mass is 7850 x its volume" 0 'difference' -- \
  close "$(total "$tmp/mass.json" mass)" "$(awk -v v="$cf" 'BEGIN { printf "%.17g", 7850 * v }')" 1e-5
ok "vxc --help lists import" 0 'import +a STEP file' -- "$vxc" --help
ok "vxc import --help is the tool's help" 0 'deflection D +mesh chordal deflection, metres \(default 1e-4' -- "$vxc" import --help

[ "$failed" -eq 0 ]
