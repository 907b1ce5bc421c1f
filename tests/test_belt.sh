#!/bin/sh
# test_belt.sh: `vxc belt`, the block-on-belt benchmark of Marques, "Frictional Contacts in
# Multibody Dynamics", section 3.4 (TAP output for Automake's driver): usage errors, the
# closed-form events of the Coulomb laws, what Marques reports for each kind of law, the
# output files, and a diverging run that is flagged.
set -u
. "$(dirname "$0")/tap.sh"

# json_num FILE KEY: the number after "KEY": in FILE (the first one)
json_num() {
  sed -n "s/^[^{]*{\"law\": \"[^\"]*\".*\"$2\": \([-0-9.eE+]*\).*/\1/p" "$1" | head -n 1
}
# near FILE KEY WANT TOL: prints "KEY = GOT" and succeeds when |GOT - WANT| <= TOL
near() {
  got=$(json_num "$1" "$2")
  echo "$2 = $got (want $3 +- $4)"
  awk -v a="$got" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= t) }'
}

echo "1..30"
ok "belt help" 0 '^usage: vxc belt --law' -- "$vxc" belt --help
ok "belt is listed" 0 'belt ' -- "$vxc" --help
ok "a missing --law is a usage error" 2 'missing --law' -- "$vxc" belt
ok "an unknown law is named" 2 "unknown friction law 'lu-gre'" -- "$vxc" belt --law lu-gre
ok "an unknown parameter is named, with the nearest" 2 "unknown friction parameter 'sigma9'; did you mean 'sigma0'" -- \
  "$vxc" belt --law lugre --param sigma9=1
ok "a misspelt law gets the nearest law" 2 "unknown friction law 'lugr'; did you mean 'lugre'\?" -- \
  "$vxc" belt --law lugr
ok "... or all" 2 "unknown friction law 'al'; did you mean 'all'\?" -- "$vxc" belt --law al
ok "a misspelt setting of the benchmark gets the nearest" 2 "unknown parameter 'v_tl'; did you mean 'v_tol'\?" -- \
  "$vxc" belt --law lugre --param v_tl=1e-4
ok "a malformed --param is a usage error" 2 'expected NAME=VALUE' -- "$vxc" belt --law lugre --param sigma0
ok "an impossible parameter is refused" 2 'mu_s = 0.05: must be >= mu_k' -- \
  "$vxc" belt --law coulomb --param mu_s=0.05
ok "a bad --duration is a usage error" 2 'duration' -- "$vxc" belt --law coulomb --duration -1

# Table 3.1/3.2: m = 1 kg, k_s = 2 N/m, v_belt = 0.1 m/s, f_n = m g = 9.81 N,
# mu_s = 0.15, mu_k = 0.1. Coulomb with stiction: the block moves with the belt,
# x = v_belt t, until the spring force k_s x reaches F_S = mu_s m g = 1.4715 N:
# x = 0.73575 m at t = 7.3575 s.
"$vxc" belt --law coulomb-stiction --json >"$tmp/cs.json" 2>&1
ok "coulomb-stiction breaks away at x = mu_s m g / k_s = 0.73575 m" 0 'breakaway_x' -- \
  near "$tmp/cs.json" breakaway_x 0.73575 1e-6
ok "... at t = 7.3575 s" 0 'breakaway_t' -- near "$tmp/cs.json" breakaway_t 7.3575 1e-9
# Slip is harmonic about x_k = mu_k m g / k_s = 0.4905 m with w = sqrt(k_s / m) =
# sqrt(2) rad/s, starting at x_k + A (A = 0.24525 m) with velocity v_belt. In the plane
# (x - x_k, x'/w) it is a circle through (A, v_belt/w); it sticks again where x' = v_belt
# again, at (-A, v_belt/w): the arc pi + 2 atan(v_belt / (w A)) = pi + 2 (0.2807078) rad
# takes 2.6184222 s. Sticking, the belt carries the block from x_k - A back to x_k + A:
# 2 A / v_belt = 4.905 s. Period 2.6184222 + 4.905 = 7.5234222 s; first re-stick at
# 7.3575 + 2.6184222 = 9.9759222 s.
ok "... sticks again at 9.9759222 s" 0 'restick_t' -- near "$tmp/cs.json" restick_t 9.9759222 1e-6
ok "... with the stick-slip period 7.5234222 s" 0 'period' -- near "$tmp/cs.json" period 7.5234222 1e-6
ok "... and says it sticks and slips" 0 '"stick_slip": true' -- cat "$tmp/cs.json"
ok "... its largest force is F_S" 0 'peak_force' -- near "$tmp/cs.json" peak_force 1.4715 1e-6

# Coulomb without stiction: break-away at k_s x = mu_k m g, x = 0.4905 m, t = 4.905 s;
# then slip starts at the centre x_k with velocity v_belt: a circle that only touches
# x' = v_belt (a grazing orbit, no stick phase) of period 2 pi sqrt(m / k_s) = 4.4428829 s.
"$vxc" belt --law coulomb --json >"$tmp/c.json" 2>&1
ok "coulomb breaks away at 4.905 s" 0 'breakaway_t' -- near "$tmp/c.json" breakaway_t 4.905 1e-9
ok "... then a grazing orbit of period 2 pi sqrt(m / k_s)" 0 'period' -- \
  near "$tmp/c.json" period 4.4428829 1e-6
ok "... which is no stick-slip" 0 '"stick_slip": false' -- cat "$tmp/c.json"

# Marques (section 3.4): Dahl is the one dynamic law without stick-slip; LuGre,
# elasto-plastic, Gonthier, the reset integrator and Liang stick and slip; the static
# laws without stiction stick only at the start.
"$vxc" belt --law all >"$tmp/all.txt" 2>&1
"$vxc" belt --law all --json >"$tmp/all.json" 2>&1
ok "--law all: one row per law" 0 '^20$' -- sh -c "wc -l < '$tmp/all.txt'"
ok "dahl: no stick-slip" 0 '^dahl .* no$' -- cat "$tmp/all.txt"
ok "the other dynamic laws stick and slip" 0 '^5$' -- \
  sh -c "grep -Ec '^(lugre|elasto-plastic|gonthier|reset-integrator|liang) .* yes$' '$tmp/all.txt'"
ok "the static laws without stiction do not" 0 '^7$' -- \
  sh -c "grep -Ec '^(coulomb|viscous|coulomb-viscous|coulomb-linear|coulomb-tanh|threlfall|ambrosio) .* no$' '$tmp/all.txt'"

# the help is the code: the laws it lists are the library's, and a smooth law's stick
# tolerance and the shortest phase that counts, as the help states them, set explicitly
# change nothing (while the values the help once gave, 1e-3 m/s and 0.01 s, change rows:
# the check can fail)
"$vxc" belt --help >"$tmp/help.txt"
ok "the help lists every law of the library" 0 '^same$' -- sh -c "
  grep -o '\"law\": \"[^\"]*\"' '$tmp/all.json' | cut -d'\"' -f4 | sort >'$tmp/laws.lib'
  sed -n '/^  --law NAME/,/all: every law/p' '$tmp/help.txt' | sed 's/--law NAME//; s/; all:.*//' |
    tr -s ' ' '\n' | grep . | sort >'$tmp/laws.help'
  [ \$(wc -l <'$tmp/laws.lib') -ge 19 ] && cmp '$tmp/laws.lib' '$tmp/laws.help' && echo same"
vtol=$(sed -n 's/.*v_tol = \([0-9.e+-]*\) m\/s.*/\1/p' "$tmp/help.txt")
minst=$(sed -n 's/.*min_stick = \([0-9.e+-]*\) s .*/\1/p' "$tmp/help.txt")
ok "the help's v_tol ($vtol m/s) and min_stick ($minst s) are the code's" 0 '^same$' -- sh -c "
  [ -n '$vtol' ] && [ -n '$minst' ] &&
  '$vxc' belt --law all --param v_tol='$vtol' --param min_stick='$minst' | cmp - '$tmp/all.txt' &&
  echo same"
ok "... and other values change the table" 0 '^differ$' -- sh -c "
  '$vxc' belt --law all --param v_tol=1e-3 --param min_stick=0.01 | cmp -s - '$tmp/all.txt' ||
  echo differ"
ok "the help states Marques's missing re-stick of coulomb-stiction and why" 0 'never sticks again' -- \
  cat "$tmp/help.txt"

# outputs: the series and the plot script; JSON of every law
ok "--out writes series.csv and --plot the script" 0 'series\.csv.*plots\.gp|plots\.gp.*series\.csv' -- \
  sh -c "'$vxc' belt --law lugre --duration 2 --out '$tmp/lg' --plot >/dev/null 2>&1; head -n 1 '$tmp/lg/series.csv'; ls '$tmp/lg' | tr '\n' ' '"
# a step far above LuGre's sliding time constant (F_C / (sigma0 v) ~ 1e-4 s) diverges:
# the run stops with a message and exit status 1, not a silent wrong answer
ok "a diverging run is flagged" 1 'non-finite' -- "$vxc" belt --law lugre --step 0.01
exit $((failed > 0))
