#!/bin/sh
# test_import_hostile.sh: vxc import on hostile STEP files (tests/fuzz/step/, the STEP fuzz
# target's regression corpus, tools/fuzz-step): each import, under a 1 GB address-space
# limit and a 10 s timeout, ends with status 0 or 1 (never a signal or a timeout); a refusal
# names the file; a model written passes vxc check. Then what each named case must say.
# Skipped when vxc was built without OpenCASCADE.
set -u
. "$(dirname "$0")/tap.sh"

tools=$(dirname "$vxc")
corpus=${VXC_TESTDIR:-.}/fuzz/step
if [ ! -x "$tools/vxc-import" ]; then
  echo "1..0 # SKIP vxc-import not built (OpenCASCADE not found by configure)"
  exit 0
fi
# the address-space limit, but for a sanitizer build (ASan reserves terabytes of shadow
# memory at start; the 10 s limit still holds there), whose SIGSEGV handler is left to the
# system so that OpenCASCADE's crash in the child is the signal the parent reports
vmem=1048576
if ldd "$tools/.libs/vxc-import" "$tools/vxc-import" 2>/dev/null | grep -q libasan; then
  vmem=unlimited
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
  export ASAN_OPTIONS
fi
nfiles=$(ls "$corpus"/*.step | wc -l)
echo "1..$((nfiles + 15))"

# bounded FILE ARGS...: vxc import FILE under the limits; prints its status and output
bounded() {
  f=$1
  shift
  rm -f "$tmp/m.vxm"
  (ulimit -v $vmem && timeout 10 "$vxc" import "$f" -o "$tmp/m.vxm" "$@") >"$tmp/imp" 2>&1
  st=$?
  cat "$tmp/imp"
  echo "status $st"
  case $st in
  0) "$vxc" check "$tmp/m.vxm" || { echo "written model rejected"; return 3; } ;;
  1) grep -q "$(basename "$f")" "$tmp/imp" || { echo "the message names no file"; return 3; } ;;
  *) return 3 ;;
  esac
  return 0
}

for f in "$corpus"/*.step; do
  ok "$(basename "$f"): status 0 or 1 within 1 GB and 10 s" 0 'status [01]$' -- bounded "$f"
done

# what the named cases must say (each crashed, ran away or wrote a bad model before)
imp() { (ulimit -v $vmem && timeout 10 "$vxc" import "$@"); }
ok "an exametre unit is refused before OCCT heals the part (it crashed in ShapeFix_Edge)" 1 \
  'exa-unit.step: length unit of 1e\+18 m, outside' -- imp "$corpus/exa-unit.step" -o "$tmp/x.vxm"
ok "a kilometre part is outside the workspace (it was tessellated at 0.1 mm until out of memory)" 1 \
  'kilo-unit.step: solid cone-peg: the part reaches 65000 m from the origin, beyond' -- \
  imp "$corpus/kilo-unit.step" -o "$tmp/x.vxm"
ok "a hectometre part is over the triangle budget before tessellation" 1 \
  'hecto-unit.step: solid cone-peg: deflection 0.0001 m would make about .* triangles' -- \
  imp "$corpus/hecto-unit.step" -o "$tmp/x.vxm"
ok "a huge length uncertainty is refused" 1 'huge-uncertainty.step: length uncertainty of 1e\+07 m' -- \
  imp "$corpus/huge-uncertainty.step" -o "$tmp/x.vxm"
rm -f "$tmp"/x*
ok "a self-intersecting tessellation is refused (it was written, and vxc check rejected it)" 1 \
  "hole-radius.step: solid hole-block: OpenCASCADE's tessellation is not a mesh vxc accepts \(.*mesh intersects itself" -- \
  imp "$corpus/hole-radius.step" --mesh -o "$tmp/x.vxm"
ok "and nothing is written" 0 '^0$' -- sh -c "ls '$tmp' | grep -c '^x' || true"
ok "a reference to an entity of the wrong type is refused before the transfer (SIGSEGV)" 1 \
  'bad-reference.step: 1 entity does not read as the STEP schema wants; first #37: Parameter n0.3 \(dir\) : Entity has illegal type' -- \
  imp "$corpus/bad-reference.step" -o "$tmp/x.vxm"
ok "a reference to an entity the file lacks is refused (SIGSEGV)" 1 \
  'missing-entity.step: the STEP reader failed: Unresolved Reference.*#282' -- imp "$corpus/missing-entity.step" -o "$tmp/x.vxm"
ok "an infinite coordinate is refused with its line (OCCT looped past 10 s)" 1 \
  "inf-coordinate.step:263: the number '1.E\\+999' is not finite" -- imp "$corpus/inf-coordinate.step" -o "$tmp/x.vxm"
ok "a huge vector magnitude, after a stray quote in a name, is refused (OCCT ran past 20 s)" 1 \
  "huge-vector.step:85: the number '1.E\\+308' is beyond 1e20" -- imp "$corpus/huge-vector.step" -o "$tmp/x.vxm"
ok "a pcurve whose representation holds a point is refused before the transfer (SIGSEGV)" 1 \
  "pcurve-item.step: #228: a pcurve's representation holds an item that is not a curve" -- \
  imp "$corpus/pcurve-item.step" -o "$tmp/x.vxm"
ok "a vertex point with two coordinates crashes OCCT in a child process, reported" 1 \
  'flat-vertex.step: OpenCASCADE crashed \(signal 11' -- imp "$corpus/flat-vertex.step" -o "$tmp/x.vxm"
ok "a milliradian angle unit is refused (OCCT took 8.8 s CPU on it)" 1 \
  'milliradian.step: plane angle unit of 0.001 rad' -- imp "$corpus/milliradian.step" -o "$tmp/x.vxm"
ok "a point 2.5e15 mm away is refused before the transfer (OCCT ran past 10 s)" 1 \
  "far-pole.step:156: the number '-2.527749E\\+15' is beyond 1e\\+08" -- imp "$corpus/far-pole.step" -o "$tmp/x.vxm"
ok "a deflection beyond the part's size is refused" 1 \
  'vase.step: solid vase: deflection 1 m is not below a quarter of the part.s size' -- \
  imp "$data/step/vase.step" --deflection 1 -o "$tmp/x.vxm"
[ "$failed" -eq 0 ]
