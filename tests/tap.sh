# tap.sh: what the command-line tests share (sourced, POSIX sh): the vxc binary and the
# data folder from the harness, a scratch folder removed at exit, `ok`, which runs one
# case and prints its TAP line, and `report`, the TAP line of a list of offenders.
vxc=${VXC_BIN:-../tools/vxc}
data=${VXC_DATADIR:-../data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# ok NAME EXPECTED_STATUS PATTERN -- COMMAND...: runs COMMAND, output (stdout+stderr) must
# match the extended regular expression PATTERN and the status must be EXPECTED_STATUS.
ok() {
  name=$1 want=$2 pattern=$3
  shift 4
  n=$((n + 1))
  "$@" >"$tmp/out" 2>&1
  got=$?
  if [ "$got" -eq "$want" ] && grep -Eq -- "$pattern" "$tmp/out"; then
    echo "ok $n - $name"
  else
    echo "not ok $n - $name (status $got, wanted $want; pattern '$pattern')"
    sed 's/^/# /' "$tmp/out" | head -n 20
    failed=$((failed + 1))
  fi
}

# mujoco_or_skip: mj, the vxc-mujoco beside vxc, or a TAP plan that skips everything and exits
# when it was not built (configure found no MuJoCo).
mujoco_or_skip() {
  mj="$(dirname "$vxc")/vxc-mujoco"
  if [ ! -x "$mj" ]; then
    echo "1..0 # SKIP vxc-mujoco not built (MuJoCo not found by configure)"
    exit 0
  fi
}

# report NAME FILE: a TAP line, passing when FILE (the offenders, a line each) is empty
report() {
  n=$((n + 1))
  if [ -s "$2" ]; then
    echo "not ok $n - $1"
    sed 's/^/# /' "$2"
    failed=$((failed + 1))
  else
    echo "ok $n - $1"
  fi
}
