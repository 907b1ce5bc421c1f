#!/bin/sh
# test_conventions.sh: the library's conventions hold in its source (TAP). Every public
# function of lib/vxc_*.h that returns a vxc_status takes a `vxc_error *` as its last
# parameter; no file of geom/, voxel/ or lib/ calls the C library's allocator (malloc,
# calloc, realloc, free, strdup, ...) but vxg_realloc of geom/solid.c, the allocator hook's
# default, so that every allocation goes through a vxc_allocator (lib/README.md, section 1);
# the functions a layer's files define for others carry its one prefix (geom vxg_, voxel
# vxv_, lib vxc_ public and vxci_ internal).
set -u
top=${VXC_TESTDIR:-$(dirname "$0")}/..
. "$(dirname "$0")/tap.sh"

echo "1..4"

# the declarations `VXC_API vxc_status ...;`, joined onto one line each
for h in "$top"/lib/vxc_*.h; do
  awk '/^VXC_API vxc_status/ { f = 1; s = "" }
       f { s = s " " $0 }
       f && /;/ { f = 0; gsub(/[ \t]+/, " ", s); print FILENAME ":" s }' "$h"
done >"$tmp/decls"
grep -v 'vxc_error \*[A-Za-z_]*);$' "$tmp/decls" | sed "s|^$top/||" >"$tmp/bad"
[ -s "$tmp/decls" ] || echo "no VXC_API vxc_status declaration found in lib/vxc_*.h" >>"$tmp/bad"
report "every public function returning a vxc_status takes a vxc_error last" "$tmp/bad"

# the calls of the C library's allocator in geom/, voxel/ and lib/, comments and string and
# character literals left out, each as FILE:LINE: FUNCTION-IT-IS-IN: TEXT
(cd "$top" && find geom voxel lib -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \) |
  sort) >"$tmp/files"
: >"$tmp/calls"
while read -r f; do
  awk -v file="$f" '
    function strip(line,   out, i, rest) {
      out = ""
      while (line != "") {
        if (in_comment) {
          i = index(line, "*/")
          if (!i) { return out }
          line = substr(line, i + 2); in_comment = 0; continue
        }
        if (!match(line, /\/\*|\/\/|"|\047/)) { return out line }
        out = out substr(line, 1, RSTART - 1)
        rest = substr(line, RSTART)
        if (rest ~ /^\/\*/) { in_comment = 1; line = substr(rest, 3) }
        else if (rest ~ /^\/\//) { return out }
        else if (match(rest, /^"([^"\\]|\\.)*"/) || match(rest, /^\047([^\047\\]|\\.)*\047/)) {
          out = out "\"\""; line = substr(rest, RLENGTH + 1)
        } else { return out rest }
      }
      return out
    }
    { code = strip($0) }
    code ~ /^[A-Za-z].*\(/ && code !~ /;[ \t]*$/ { fn = code }
    code ~ /(^|[^A-Za-z0-9_.>])(malloc|calloc|realloc|reallocarray|free|strdup|strndup|aligned_alloc|posix_memalign)[ \t]*\(/ {
      if (!(file == "geom/solid.c" && fn ~ /^void \*vxg_realloc\(/)) {
        print file ":" FNR ": " $0
      }
    }' "$top/$f" >>"$tmp/calls"
done <"$tmp/files"
report "geom/, voxel/ and lib/ allocate only through a vxc_allocator" "$tmp/calls"

# the exception itself is still there (else the pattern above may have stopped matching)
grep -q '^void \*vxg_realloc(' "$top/geom/solid.c" &&
  grep -Eq '^[[:space:]]+return realloc\(ptr, size\);' "$top/geom/solid.c" ||
  echo "geom/solid.c: vxg_realloc no longer calls realloc(3) as this test expects" >"$tmp/gone"
touch "$tmp/gone"
report "vxg_realloc of geom/solid.c is the one call of realloc(3)" "$tmp/gone"
# the functions defined at file scope and not static: `TYPE name(` at the start of a line
: >"$tmp/names"
for layer in geom:vxg_ voxel:vxv_ lib:vxci?_; do
  dir=${layer%%:*} pre=${layer#*:}
  for f in "$top/$dir"/*.c; do
    grep -E '^[A-Za-z_][A-Za-z0-9_ ]*[ *]+[a-z_][a-z0-9_]*\(' "$f" | grep -Ev '^(static|typedef|extern) ' |
      grep -Ev ';[[:space:]]*$' | sed -E 's/^[^(]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/' |
      grep -Ev "^(${pre})" | sed "s|^|${f#$top/}: |" >>"$tmp/names"
  done
done
report "each layer's functions carry its prefix (vxg_, vxv_, vxc_ or vxci_)" "$tmp/names"
[ "$failed" -eq 0 ]
