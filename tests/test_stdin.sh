#!/bin/sh
# test_stdin.sh: `-` as the model file reads standard input (vxc info, check, mass), as a
# user pipes a model in (TAP): the solid read equals the file's, a mesh the piped model names
# resolves against the current directory (the 100 x 60 x 40 mm box, V = 2.4e-4 m^3 in closed
# form), errors name <stdin> with line and column, and standard input is read only once.
set -u
. "$(dirname "$0")/tap.sh"

echo "1..10"
ok "vxc --help says '-' reads standard input" 0 "'-'.*standard input" -- \
  sh -c "'$vxc' --help | tr '\n' ' '"
ok "vxc info --help says so too" 0 "'-' reads standard input" -- "$vxc" info --help
ok "info -: the piped solid" 0 "^-: solid 'ball', density 477.465 kg/m\^3, 1 cell" -- \
  sh -c "'$vxc' info - < '$data/ball.vxm'"
ok "info - prints what info FILE prints, but for the name" 0 '^same$' -- \
  sh -c "'$vxc' info - < '$data/ball.vxm' | tail -n +2 > '$tmp/a'; \
         '$vxc' info '$data/ball.vxm' | tail -n +2 > '$tmp/b'; cmp '$tmp/a' '$tmp/b' && echo same"

# the mesh is named relative to the current directory, which is not the model's
mkdir -p "$tmp/work/m" "$tmp/elsewhere"
cp "$data/meshes/box-mm.stl" "$tmp/work/m/box.stl"
printf '(solid s\n  (cell box (mesh "m/box.stl" (scale 0.001))))\n' >"$tmp/work/box.vxm"
ok "mass -: the piped model's mesh resolves against the current directory (2.4e-4 m^3)" 0 \
  '"volume": 0\.000(23999999999|24000000000)' -- \
  sh -c "cd '$tmp/work' && '$vxc' mass - --json < box.vxm"
ok "from another directory the same piped model's mesh is not found" 1 \
  'm/box\.stl.*(cannot|No such)' -- sh -c "cd '$tmp/elsewhere' && '$vxc' mass - < ../work/box.vxm"

printf '(solid s\n  (cell c (sphere -1)))\n' >"$tmp/bad.vxm"
ok "an error in the piped model names <stdin>:LINE:COLUMN" 1 '^vxc: <stdin>:2:[0-9]+: ' -- \
  sh -c "'$vxc' check - < '$tmp/bad.vxm'"
ok "empty standard input is an empty model file" 1 '<stdin>.*empty' -- \
  sh -c "'$vxc' check - < /dev/null"
ok "standard input is read once: a second '-' is refused" 1 'read only once' -- \
  sh -c "'$vxc' check - - < '$data/ball.vxm'"

# a task piped in: its models resolve against the current directory
ok "task -: a piped task runs, its models found from the current directory" 0 \
  'task ball-on-table: completed at t = 0.01 s' -- \
  sh -c "cd '$data' && '$vxc' task - --duration 0.01 --out '$tmp/task-out' < ball-on-table.vxt"
[ "$failed" -eq 0 ]
