#!/bin/sh
# test_readme.sh: the README's C API example (drop.c, taken from README.md by the Makefile,
# built against the library as a user builds it) runs, and the ball it drops comes to rest
# where k_v V = m g: V = pi h^2 (R - h / 3) with R = 0.1 m, m = 2 kg, k_v = 1e7 N/m^3 gives
# h = 2.5096 mm, a centre height R - h (TAP).
set -u
. "$(dirname "$0")/tap.sh"

echo "1..2"
prog=./readme_drop
ok "the example runs and prints the resting height" 0 '^resting height 0\.[0-9]+ m$' -- \
  "$prog" "$data"
z=$(sed -n 's/^resting height \([0-9.]*\) m$/\1/p' "$tmp/out")
want=$(awk 'BEGIN { R = 0.1; V = 2 * 9.81 / 1e7; h = 0.001;
  for (i = 0; i < 50; i++) { f = 3.14159265358979 * h * h * (R - h / 3) - V;
    d = 3.14159265358979 * (2 * h * R - h * h); h -= f / d }
  printf "%.9f", R - h }')
ok "it rests at the closed-form height $want m within 1e-5 m (got ${z:-none})" 0 yes -- \
  awk -v z="${z:-0}" -v w="$want" 'BEGIN { d = z - w; if (d < 0) d = -d;
    print (d <= 1e-5 ? "yes" : "no") }'
[ "$failed" -eq 0 ]
