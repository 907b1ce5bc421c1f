#!/bin/sh
# test_docs.sh: the docs say what the tree holds (TAP). Every source file, header and script
# of a layer (geom, voxel, lib, tools, and tests) is named in its README.md; every public
# header vxc.h includes (and those they include) is named in the top README.md; the
# layering the top README states holds in the includes: geom, voxel, lib, tools from the
# bottom, a layer including only its own headers and those below it (the status and error
# types every layer shares are geom/vxc_types.h), tools only the public lib/vxc.h; every
# project header is included by its path from the top (the public headers excepted, which
# include each other by bare name, as installed).
set -u
top=${VXC_TESTDIR:-$(dirname "$0")}/..
. "$(dirname "$0")/tap.sh"

# named NAME DOC: NAME appears in DOC as a word of its own (not inside a longer file name)
named() {
  grep -Eq "(^|[^A-Za-z0-9_.-])$(printf '%s' "$1" | sed 's/[.]/[.]/g')([^A-Za-z0-9_-]|$)" "$2"
}

echo "1..12"
for layer in geom voxel lib tools tests; do
  : >"$tmp/missing"
  # sources and headers (subfolders too), and tools' scripts: the files git or the tarball has
  files=$(cd "$top/$layer" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \
    -o -name '*.in' \) | sed 's|^\./||' | sort)
  [ "$layer" = tools ] && files="$files setup demo fuzz gen-meshes gen-step mujoco/compare mujoco/cost"
  # the tests' scripts and suppressions, not the fuzz inputs (fuzz/) or readme_drop.c (made
  # from README.md)
  [ "$layer" = tests ] && files=$(cd "$top/tests" && ls ./*.c ./*.h ./*.sh ./*.py ./*.supp |
    sed 's|^\./||' | grep -v '^readme_drop\.c$')
  for f in $files; do
    [ -e "$top/$layer/$f" ] || continue
    # made by autoreconf or configure, not written
    case "$f" in Makefile.in | */Makefile.in) continue ;; esac
    [ -e "$top/$layer/$f.in" ] && continue
    # a file in a subfolder may be named by its path or by its base name
    if ! named "$f" "$top/$layer/README.md" && ! named "${f##*/}" "$top/$layer/README.md"; then
      echo "$layer/$f" >>"$tmp/missing"
    fi
  done
  report "every source, header and script of $layer/ is named in $layer/README.md" \
    "$tmp/missing"
done

# the public headers: vxc.h's includes, followed through the headers it includes
: >"$tmp/missing"
todo=vxc.h
seen=""
while [ -n "$todo" ]; do
  set -- $todo
  h=$1
  shift
  todo="$*"
  case " $seen " in *" $h "*) continue ;; esac
  seen="$seen $h"
  f="$top/lib/$h"
  [ -f "$f" ] || f="$top/geom/$h" # vxc_types.h, the types every layer shares
  [ -f "$f" ] || continue # vxc_version.h is made by configure
  for i in $(sed -n 's/^#include "\(vxc[a-z_]*\.h\)".*/\1/p' "$f"); do
    todo="$todo $i"
  done
done
for h in $seen; do
  [ "$h" = vxc_version.h ] && continue
  named "$h" "$top/README.md" || echo "$h" >>"$tmp/missing"
done
report "every public header vxc.h includes is named in README.md" "$tmp/missing"

# the layering and the include style: what each layer's files may include, as `LAYER/...`
# paths (a bare "cli.h" is refused too)
: >"$tmp/bad"
tr '\n' ' ' <"$top/README.md" | grep -q 'a layer uses only the layers below it' ||
  echo "README.md no longer states the layering this test checks" >>"$tmp/bad"
report "README.md states the layering" "$tmp/bad"
allowed() {
  case "$1" in
  geom) echo 'geom/|vxc_version\.h' ;; # vxc_types.h includes its generated sibling bare
  voxel) echo 'geom/|voxel/' ;;
  lib) echo 'geom/|voxel/|lib/|vxc[a-z_]*\.h' ;; # public headers include each other bare
  tools) echo 'tools/|lib/vxc\.h' ;;
  tests) echo 'geom/|voxel/|lib/|tools/|tests/' ;; # anything, by its path from the top
  esac
}
for layer in geom voxel lib tools tests; do
  : >"$tmp/bad"
  ok_re=$(allowed "$layer")
  (cd "$top" && find "$layer" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \)) |
    sort | while read -r f; do
      sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$top/$f" |
        grep -Ev "^($ok_re)" | sed "s|^|$f includes |" >>"$tmp/bad"
    done
  report "$layer/ includes only the layers it may use" "$tmp/bad"
done
[ "$failed" -eq 0 ]
