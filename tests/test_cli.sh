#!/bin/sh
# test_cli.sh: the vxc command as a user meets it (TAP output for Automake's driver).
# Each case runs the command and checks its exit status and what it prints.
set -u
. "$(dirname "$0")/tap.sh"

echo "1..86"
ok "version prints the version" 0 '^vxc [0-9]+\.[0-9]+\.[0-9]+$' -- "$vxc" --version
ok "help lists the commands" 0 'info .*check' -- sh -c "'$vxc' --help | tr '\n' ' '"
ok "no arguments is a usage error" 2 'usage: vxc COMMAND' -- "$vxc"
ok "a misspelt command gets a hint" 2 "unknown command 'inof'; did you mean 'info'" -- "$vxc" inof
ok "an unknown option is named" 2 "unknown option '--bogus'" -- "$vxc" info --bogus "$data/ball.vxm"
ok "command help" 0 '^usage: vxc info' -- "$vxc" info --help
ok "every bundled model is valid" 0 'ok' -- sh -c "'$vxc' check '$data'/*.vxm"
ok "info shows the sphere and its box" 0 'sphere 0\.1\).*x \[-0\.1, 0\.1\]' -- \
  sh -c "'$vxc' info '$data/ball.vxm' | tr '\n' ' '"
ok "a missing file is named" 1 'no-such-file\.vxm' -- "$vxc" check "$tmp/no-such-file.vxm"

# a typo in a model file: the error names file, line and column
printf '(solid s\n  (cell c (spere 0.1)))\n' >"$tmp/typo.vxm"
ok "a typo names file, line and column" 1 'typo\.vxm:2:12: .*spere' -- "$vxc" check "$tmp/typo.vxm"

# an unbalanced parenthesis
printf '(solid s\n  (cell c (sphere 0.1))\n' >"$tmp/open.vxm"
ok "an unclosed list is reported" 1 'open\.vxm:[0-9]+:[0-9]+: .*(unclosed|unbalanced|missing|expected)' -- \
  "$vxc" check "$tmp/open.vxm"

# check reports every file, and fails when one is bad
ok "check goes on after a bad file" 1 'ball\.vxm: ok' -- "$vxc" check "$tmp/typo.vxm" "$data/ball.vxm"

# a gzip-compressed model reads like the plain one
gzip -c "$data/ball.vxm" >"$tmp/ball.vxm.gz"
ok "a gzip-compressed model loads" 0 "solid 'ball'" -- "$vxc" info "$tmp/ball.vxm.gz"

# mass: the 2 kg ball (its density is 2 kg over 4/3 pi 0.1^3 m^3)
ok "mass of the ball is 2 kg (to rtol 1e-3)" 0 '"mass": (1\.99[89]|2\.00[01])' -- "$vxc" mass "$data/ball.vxm" --json
ok "mass with --density" 0 'mass 0\.041(8[4-9]|9[0-2])' -- sh -c "'$vxc' mass '$data/ball.vxm' --density 10 | tr '\n' ' '"
ok "mass rejects a bad density" 2 "density" -- "$vxc" mass "$data/ball.vxm" --density -1
ok "mass takes one file" 2 "one model file" -- "$vxc" mass "$data/ball.vxm" "$data/table.vxm"

# metrics: the ball 1 mm into the table: cap volume pi h^2 (R - h/3) = 3.13112e-07 m^3
ok "metrics of the ball on the table" 0 '"contact": true.*"volume": 3\.1(2[89]|3[0-4])' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --json
ok "metrics apart gives the distance" 0 '"contact": false, "distance": 0\.0(09999|1)' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.11" --json
ok "a malformed pose is named" 2 "pose-a.*x y z" -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0"
ok "a pose with NaN is refused" 2 "pose-b" -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-b "0 0 nan"
ok "a zero quaternion is refused" 2 "quaternion.*zero" -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0 0 0 0 0"
ok "metrics needs two files" 2 "two model files" -- "$vxc" metrics "$data/ball.vxm"

# force: at rest 1 mm deep, f_n = k_v V = 1e11 N/m^3 * 3.13112e-07 m^3 = 31311 N (no damping
# without approach speed, no friction without sliding)
ok "force at rest is k_v V" 0 '"f_n": 31(2[89]|3[0-4])[0-9]\.' -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --json
ok "force takes --param" 0 '"f_n": 31(2\.[89]|3\.[0-4])' -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --param k_v=1e9 --json
# force (patches by default; --patches, the old option, accepted): a box peg 0.2 mm into both
# x walls of the concave mesh hole-block, 10 mm deep: two patches, each k_v V = 1e9 N/m^3 *
# 0.2 mm * 20 mm * 10 mm = 40 N (at rest), and the pair's f_n their sum; a connected contact
# (the ball on the table) has one patch; --merge-patches: one contact, no patch list
printf '(solid p (cell c (box 0.0244 0.02 0.06) (pose (translate 0 0 0.03))))\n' >"$tmp/pp.vxm"
ok "force: each wall's patch k_v V, by default" 0 '^2$' -- sh -c "'$vxc' force \
  '$data/mesh-hole-block.vxm' '$tmp/pp.vxm' --pose-b '0 0 -0.01' --voxel 5e-4 --param k_v=1e9 \
  --json | grep -o '\"f_n\": 40\.[0-4][0-9]*' | wc -l"
ok "force: the text report lists the two walls' patches" 0 '^2$' -- sh -c "'$vxc' force \
  '$data/mesh-hole-block.vxm' '$tmp/pp.vxm' --pose-b '0 0 -0.01' --voxel 5e-4 --param k_v=1e9 \
  | grep -c 'patch [01]: V = 4e-08 m^3, f_n = 40 N'"
ok "force --merge-patches: one contact, no patch list" 0 '^0 1$' -- sh -c "'$vxc' force \
  '$data/mesh-hole-block.vxm' '$tmp/pp.vxm' --pose-b '0 0 -0.01' --voxel 5e-4 --param k_v=1e9 \
  --merge-patches --json >'$tmp/fm.json'; \
  echo \$(grep -c '\"patches\"' '$tmp/fm.json') \$(grep -o '\"cell_a\"' '$tmp/fm.json' | wc -l)"
ok "force --patches: each wall's patch k_v V" 0 '^2$' -- sh -c "'$vxc' force \
  '$data/mesh-hole-block.vxm' '$tmp/pp.vxm' --pose-b '0 0 -0.01' --voxel 5e-4 --param k_v=1e9 \
  --patches --json | grep -o '\"f_n\": 40\.[0-4][0-9]*' | wc -l"
ok "force --patches: the pair's f_n is their sum" 0 '"f_n": 80\.[0-9]+, "normal"' -- \
  "$vxc" force "$data/mesh-hole-block.vxm" "$tmp/pp.vxm" --pose-b "0 0 -0.01" --voxel 5e-4 \
  --param k_v=1e9 --patches --json
ok "force --patches: a connected contact has one patch" 0 '^1 2$' -- sh -c "'$vxc' force \
  '$data/ball.vxm' '$data/table.vxm' --pose-a '0 0 0.099' --patches --json >'$tmp/fp.json'; \
  echo \$(grep -o '\"patches\": \[{' '$tmp/fp.json' | wc -l) \$(grep -o '\"f_n\"' '$tmp/fp.json' | wc -l)"
ok "force names a bad parameter" 2 "e_eff" -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --param e_eff=1.5
ok "force names an unknown parameter" 2 "k_vv" -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --param k_vv=1

# a parameter file with a typo: file, line and column
printf '# stiffness\nk_v 1e9\nmu_s zero\n' >"$tmp/p.txt"
ok "a bad parameter file names line and column" 1 'p\.txt:3:6: expected a number' -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --params "$tmp/p.txt"

# bench: two 20,000-triangle spheres built in memory meet in their exact polyhedral lens
# (convex meshes' leaves are exact: the error is rounding); speed is not checked
ok "bench measures the mesh lens exactly" 0 '^mesh lens +h=[0-9.e-]+\[1e-03\] +[0-9.e+-]+ +[0-9.]+e-(1[0-9]|[2-9][0-9]) ' -- \
  "$vxc" bench --quick --only "mesh lens"
ok "bench names an unknown option" 2 "unknown option '--fast'" -- "$vxc" bench --fast
# bench --mesh: a box flat on a box is two convex meshes, exact against the sum of convex
# intersections (the peers' columns whether or not they are installed)
ok "bench --mesh measures a box on a box exactly" 0 \
  '"name": "box flat on box #0", "triangles": 24, "reference": "pieces", "volume_ref": 1\.(2000000000|1999999999)[0-9]*e-06, "vxc": \{"ms": [0-9.e+-]+, "volume": [0-9.e+-]+, "error": ([0-9.]+e-1[0-9]|0)\}' -- \
  "$vxc" bench --mesh --quick --variants 1 --only "box flat" --json
ok "bench --json needs --mesh" 2 "only with --mesh" -- "$vxc" bench --json
# bench --warm: a query's figures do not depend on what its workspace measured before (the
# same volume, warm or cold, at both tolerances); a count of cases is a whole number
ok "bench --warm: warm and cold queries give the same volume" 0 \
  '^rtol 1e-04 +[0-9]+ +([0-9.]+ +){6}0\.00e\+00$' -- "$vxc" bench --warm 4
ok "bench --warm needs a whole number of cases" 2 "--warm: expected a whole number" -- \
  "$vxc" bench --warm 0.5

# a result that misses its tolerance is flagged: exit status 3, a warning, "capped": true
ok "a capped mass exits with 3 and warns" 3 'vxc mass: warning: .*less accurate than asked' -- \
  "$vxc" mass "$data/ball.vxm" --rtol 1e-4 --max-boxes 100 --no-closed-form
ok "a capped mass says so in every JSON object" 3 '"capped": true.*"capped": true' -- \
  "$vxc" mass "$data/ball.vxm" --rtol 1e-4 --max-boxes 100 --json --no-closed-form
ok "a capped contact query exits with 3" 3 '"capped": true' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --max-boxes 50 --json \
  --no-closed-form
ok "a ball on a table is measured in closed form, uncapped whatever the cap" 0 \
  '"capped": false, "closed_form": true' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --max-boxes 50 --json
cat >"$tmp/sink.vxm" <<EOT
(solid sink (cell block (box 0.1 0.1 0.04) (not (move (translate 0 0 -0.03) (cone 45)))))
EOT
cat >"$tmp/tip.vxm" <<EOT
(solid tip (cell tip (move (translate 0 0 -0.03) (cone 45)) (slab z -0.02 0.05)))
EOT
ok "a cone in a countersink is measured by quadrature, and says so" 0 \
  '"closed_form": true, "quadrature": true' -- \
  "$vxc" metrics "$tmp/sink.vxm" "$tmp/tip.vxm" --pose-b "0 0 -0.00005" --json
ok "a ball on a table is not by quadrature" 0 '"closed_form": true, "quadrature": false' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --json
ok "the console says a quadrature is not certified" 0 'by quadrature \(its error estimated, not certified\)' -- \
  "$vxc" metrics "$tmp/sink.vxm" "$tmp/tip.vxm" --pose-b "0 0 -0.00005"
ok "a query that meets its tolerance is not capped" 0 '"total": \{"capped": false' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.099" --json

# numbers of the command line have the model files' limits
ok "a pose beyond 1e4 m is a usage error" 2 'pose-a: position 1e\+155 m is beyond 1e4 m' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "1e155 0 0"
ok "a velocity beyond 1e6 is a usage error" 2 'vel-a: 1e\+09 is beyond' -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --vel-a "1e9 0 0 0 0 0"
# a leaf larger than the region is clamped to a quarter of it: the ball 50 mm into the table
# with --voxel 10 measures the cap (pi h^2 (3 R - h) / 3 = 6.545e-4 m^3) within 10%, not the
# table (0.024 m^3)
ok "a leaf larger than the region is clamped" 0 'total V = 0\.0006[0-9]+ m\^3' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.05" --voxel 10
ok "an absurd leaf still finds the contact" 0 'total V = 0\.0006[0-9]+ m\^3' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a "0 0 0.05" --voxel 1e20

# a write to a full standard output is an error, not a success with lost output
ok "vxc mass --json to a full disk exits 1" 1 'standard output: write error: No space left' -- \
  sh -c "'$vxc' mass '$data/ball.vxm' --json >/dev/full"
ok "vxc metrics to a full disk exits 1" 1 'standard output: write error' -- \
  sh -c "'$vxc' metrics '$data/ball.vxm' '$data/table.vxm' --pose-a '0 0 0.05' >/dev/full"

# parameter files are bounded: /dev/zero (endless NUL bytes) is refused at 1 MiB, a NUL
# byte names its line and column, a line past 1023 characters is refused
ok "--params /dev/zero is refused, not read for ever" 1 '/dev/zero: parameter file larger than 1024 KiB' -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --params /dev/zero
printf 'k_v 1e7\nmu_c\0000.1\n' >"$tmp/nul.txt"
ok "a NUL byte in a parameter file is refused with its place" 1 'nul\.txt:2:5: a NUL byte' -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --params "$tmp/nul.txt"
{ printf 'k_v '; head -c 1100 /dev/zero | tr '\0' '1'; echo; } >"$tmp/long.txt"
ok "a parameter line past 1023 characters is refused" 1 'long\.txt:1:1024: line longer than 1023' -- \
  "$vxc" force "$data/ball.vxm" "$data/table.vxm" --params "$tmp/long.txt"

# a gzip bomb (100 MiB of blanks in 100 kB) stops at 16 MiB inflated, not at the mesh limit
{ echo solid x; head -c 104857600 /dev/zero | tr '\0' ' '; } | gzip -9 >"$tmp/bomb.stl.gz"
printf '(solid b (cell c (mesh "bomb.stl.gz")))\n' >"$tmp/bomb.vxm"
ok "a gzip bomb of a mesh is stopped early" 1 'bomb\.stl\.gz": decompressed data larger than 16 MiB' -- \
  "$vxc" check "$tmp/bomb.vxm"

# command-line conventions: --opt=value, a misspelt option gets the nearest one from the
# command's help, `vxc help COMMAND`
ok "--opt=value is --opt value" 0 'total V = ' -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --pose-a="0 0 0.049" --rtol=1e-2
ok "a misspelt option gets a hint" 2 "unknown option '--rtl'; did you mean '--rtol'" -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --rtl 1e-2
cp "$data/ball.vxm" "$tmp/-ball.vxm"
ok "after --, a file may start with '-'" 0 "^\./-ball\.vxm: solid 'ball'" -- \
  sh -c "cd '$tmp' && '$vxc' info -- -ball.vxm"
ok "after --, '-' is a file called '-', not standard input" 1 "\./-: cannot open" -- \
  sh -c "cd '$tmp' && '$vxc' info -- - < '$data/ball.vxm'"
printf '(solid s (cell a (sphere 0.1)) (cell b (sphere 0.1) (pose (translate 0.05 0 0))))' >"$tmp/overlap.vxm"
ok "vxc check warns of overlapping cells" 0 "warning: .*overlap\.vxm: cells 'a' and 'b' overlap by" -- \
  "$vxc" check "$tmp/overlap.vxm"
ok "touching cells are no overlap" 0 '^[^ ]*tippe-top\.vxm: ok \(solid .tippe-top., 2 cells\) $' -- \
  sh -c "'$vxc' check '$data/tippe-top.vxm' 2>&1 | tr '\n' ' '"
ok "--rtol and --voxel together get a warning" 0 "warning: --rtol and --voxel both given" -- \
  "$vxc" metrics "$data/ball.vxm" "$data/table.vxm" --voxel 4e-3 --rtol 1e-2
ok "vxc help COMMAND prints its help" 0 '^usage: vxc task FILE\.vxt' -- "$vxc" help task
ok "vxc help of an unknown command is a usage error" 2 "unknown command 'tsak'" -- "$vxc" help tsak
ok "vxc help of a misspelt command gets the nearest" 2 "unknown command 'metric'; did you mean 'metrics'\?" -- \
  "$vxc" help metric
ok "a misspelt option of vxc itself gets the nearest" 2 "unknown option '--verison'; did you mean '--version'\?" -- \
  "$vxc" --verison
ok "vxc import checks its options with a hint, OpenCASCADE or not" 2 "unknown option '--exat'; did you mean '--exact'\?" -- \
  "$vxc" import --exat part.step

# exit statuses: the general help lists every status the commands use (tools/cli.h), each
# command's help says which it uses, and those that catch signals say 130 and 143
ok "the general help lists the exit statuses 0, 1, 2, 3, 4, 130 and 143" 0 '^0 1 2 3 4 130 143 $' -- \
  sh -c "'$vxc' --help | sed -n '/^Exit status/,\$p' | sed -n 's/^  \([0-9][0-9]*\) .*/\1/p' | tr '\n' ' '"
ok "every command's help gives its exit statuses" 0 '^all$' -- sh -c "
  for c in \$('$vxc' --help | sed -n '/^Commands:/,/^\$/p' | awk 'NR > 1 && NF { print \$1 }'); do
    '$vxc' \$c --help | grep -q 'Exit status' || { echo \"\$c: none\"; exit 1; }
  done; echo all"
ok "the commands that catch SIGINT and SIGTERM say 130 and 143" 0 '^task sweep $' -- sh -c "
  for c in task sweep; do '$vxc' \$c --help | tr '\n' ' ' | grep -q '130 or 143' && printf '%s ' \$c; done"

# bench: its table lines up under its header, prints '-' where it measured nothing (never
# nan), and --quick leaves out the rows its help says (the certified and 1e-5 rtol rules)
"$vxc" bench --quick --only "cap 25 um" >"$tmp/bench.txt" 2>&1
ok "bench --quick: the columns line up, no nan" 0 '^aligned 3$' -- awk '
  /^case / { w = length($0) } /^cap 25 um/ { n++; if (length($0) != w || /nan/) bad = 1 }
  END { print (bad || !w ? "ragged" : "aligned"), n }' "$tmp/bench.txt"
ok "bench --quick: no cert= rows, rtol 1e-3 alone of the rtol rules" 0 '^rtol=1e-03 $' -- \
  sh -c "awk '/^cap 25 um/ && \$4 ~ /^(rtol|cert)=/ { printf \"%s \", \$4 }' '$tmp/bench.txt'"
ok "bench --help says so" 0 'runs rtol=1e-3 alone of the' -- "$vxc" bench --help
ok "bench --only matching nothing is a usage error with a hint" 2 "matches no case of the table; did you mean 'cap 25 um'" -- \
  "$vxc" bench --quick --only "cap 25um"
ok "... and so for the mesh family" 2 "matches no case of the mesh family; did you mean 'box flat on box'" -- \
  "$vxc" bench --mesh --quick --variants 1 --only "box flat on bx"

# a command given --json that fails writes a JSON error object, nothing else, on stdout
printf '(solid s (cell a (sphere 0.1)) (cell b (sphere 0.1) (halfspace 0 0 1 -0.2)))' >"$tmp/empty.vxm"
ok "a failed --json command writes an error object" 1 '^\{"error": \{"exit_status": 1, "message": ".*empty\.vxm:1:32: cell .b. is empty' -- \
  sh -c "'$vxc' mass '$tmp/empty.vxm' --json 2>/dev/null"

# a model drawn in millimetres: the peg of data/peg.vxm with its lengths in mm
printf '(solid peg (density 7850)\n  (cell tip (move (translate 0 0 -17) (cone 45)) (slab z 0 3))\n  (cell shaft (cylinder 20) (slab z 3 100))\n  (cell head (box 60 60 20) (pose (translate 0 0 110))))\n' >"$tmp/peg-mm.vxm"
sed 's/(density 7850)/(units mm) (density 7850)/' "$tmp/peg-mm.vxm" >"$tmp/peg-units.vxm"
mmwarn="warning: .*peg-mm\.vxm: solid 'peg' is 120 m across.*add \(units mm\)"
ok "check warns of a model drawn in millimetres" 0 "$mmwarn" -- "$vxc" check "$tmp/peg-mm.vxm"
ok "mass warns of it" 0 "vxc mass: $mmwarn" -- "$vxc" mass "$tmp/peg-mm.vxm" --rtol 1e-2
ok "metrics warns of it" 0 "vxc metrics: $mmwarn" -- "$vxc" metrics "$tmp/peg-mm.vxm" "$data/ball.vxm" --pose-b "0 0 500"
ok "force warns of it" 0 "vxc force: $mmwarn" -- "$vxc" force "$tmp/peg-mm.vxm" "$data/ball.vxm" --pose-b "0 0 500"
cp "$data/ball.vxm" "$tmp/ball.vxm"
printf '(task t (duration 1e-3)\n (body p (model "peg-mm.vxm") (fixed) (pose 0 0 0))\n (body b (model "ball.vxm") (free) (pose 0 0 500)))\n' >"$tmp/mm.vxt"
ok "task warns of it" 0 "vxc task: $mmwarn" -- "$vxc" task "$tmp/mm.vxt" --out "$tmp/mm-out"
ok "with (units mm) it is the bundled peg, unwarned" 0 '^[^ ]*peg-units\.vxm: ok \(solid .peg., 3 cells\) $' -- \
  sh -c "'$vxc' check '$tmp/peg-units.vxm' 2>&1 | tr '\n' ' '"
ok "no bundled model is warned of" 0 '^ *0$' -- sh -c "'$vxc' check -q '$data'/*.vxm '$data'/step/*.vxm 2>&1 | wc -c"

[ "$failed" -eq 0 ]
