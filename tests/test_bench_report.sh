#!/bin/sh
# test_bench_report.sh: `vxc bench --report FILE` writes the performance and validation page
# (TAP): stamped with version, commit, date and machine; the bench's four tables; a row per
# task file of --data DIR whose real-time factor is its simulated time (the file's own
# duration) over the CPU time it reports, as the file asks and with the fast paths off. A
# tiny run: one case of the table, three corpus cases, one short task.
set -u
. "$(dirname "$0")/tap.sh"

echo "1..7"
mkdir "$tmp/tasks"
cat >"$tmp/tasks/drop.vxt" <<END
(task drop (gravity 0 0 -9.81) (duration 0.05) (integrator adaptive (rtol 1e-6) (max-step 1e-3))
  (record (every 0.01))
  (body table (model "$data/table.vxm") (fixed) (pose 0 0 0))
  (body ball (model "$data/ball.vxm") (free) (pose 0 0 0.1005))
  (contact table ball (params (k_v 1e7)) (voxel 2e-3)))
END
page="$tmp/page.md"
ok "the report is written" 0 "wrote $page" -- \
  "$vxc" bench --report "$page" --quick --only "cap 1 mm" --corpus 3 --data "$tmp/tasks"
ok "it is stamped with version, commit, date and machine" 0 yes -- sh -c "
  grep -Eq '^\| vxc \| [0-9]+\.[0-9]+\.[0-9]+ \|$' '$page' &&
  grep -Eq '^\| commit \| [^|]+ \|$' '$page' &&
  grep -Eq '^\| date \| [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC \|$' '$page' &&
  grep -Eq '^\| machine \| [^|]+ online CPUs \|$' '$page' && echo yes"
ok "it holds the table, the peer set, the corpus and warm against cold" 0 yes -- sh -c "
  grep -Eq '^cap 1 mm +rtol=1e-03 ' '$page' &&
  grep -Eq '^two spheres 0.05 m, 2 mm +rtol 1e-3 ' '$page' &&
  grep -Eq '^vxc bench --corpus: 3 cases' '$page' &&
  grep -Eq '^vxc bench --warm: 3 cases' '$page' && echo yes"
row=$(grep '^| `drop.vxt`' "$page")
ok "the task ran its whole 0.05 s (${row:-no row})" 0 yes -- \
  awk -F'|' -v r="$row" 'BEGIN { split(r, c, "|"); print (c[3] + 0 == 0.05 && c[4] + 0 == 0.05 &&
    c[8] ~ /completed/ ? "yes" : "no") }'
ok "its real-time factor is the simulated time over the CPU time" 0 yes -- \
  awk -v r="$row" 'BEGIN { split(r, c, "|"); want = c[3] / c[5]; d = c[6] / want - 1;
    if (d < 0) d = -d; print (c[5] > 0 && d < 0.01 ? "yes" : "no") }'
ok "with the fast paths off it ran the same 0.05 s too, its factor its own simulated over CPU time" 0 yes -- \
  awk -v r="$row" 'BEGIN { split(r, c, "|"); d = c[11] / (c[9] / c[10]) - 1; if (d < 0) d = -d
    print (c[9] + 0 == 0.05 && c[10] > 0 && d < 0.01 && c[12] > 0 &&
           c[13] ~ /completed/ ? "yes" : "no") }'
ok "a report that cannot be written fails, naming it" 1 "vxc bench --report: .*none/page.md" -- \
  "$vxc" bench --report "$tmp/none/page.md" --quick --only "cap 1 mm" --corpus 1 \
  --data "$tmp/tasks"
[ "$failed" -eq 0 ]
