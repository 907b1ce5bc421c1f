#!/bin/sh
# test_bench_list.sh: `vxc bench --corpus N --list` prints one line a case, each rule's CPU
# ms and relative error against the case's reference, and `--case I` reruns case I alone
# with the same figures (TAP).
set -u
. "$(dirname "$0")/tap.sh"

echo "1..4"
"$vxc" bench --corpus 4 --list >"$tmp/all" 2>&1
"$vxc" bench --corpus 4 --list --case 2 >"$tmp/one" 2>&1
ok "a header and a line for each of the 4 cases, numbered" 0 yes -- sh -c "
  awk 'NR > 1 { n++; if (\$1 != NR - 2) bad = 1 } END { print (n == 4 && !bad ? \"yes\" : \"no\") }' '$tmp/all'"
ok "every rule's error is within its tolerance (1e-3, 1e-4, 1e-3)" 0 yes -- \
  awk 'NR > 1 { if (!($7 <= 1e-3 && $9 <= 1e-4 && $11 <= 1e-3)) bad = 1 }
       END { print (NR == 5 && !bad ? "yes" : "no") }' "$tmp/all"
# the CPU times differ from run to run; the case and its errors do not
ok "--case 2 prints case 2's line, its errors the same" 0 yes -- sh -c "
  a=\$(awk '\$1 == 2 { print \$1, \$2, \$3, \$4, \$5, \$7, \$9, \$11 }' '$tmp/all')
  b=\$(awk 'NR > 1 { print \$1, \$2, \$3, \$4, \$5, \$7, \$9, \$11 }' '$tmp/one')
  [ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ] && echo yes"
ok "--list without --corpus is a usage error" 2 "only with --corpus" -- "$vxc" bench --list
[ "$failed" -eq 0 ]
