#!/bin/sh
# test_cli.sh: the vxc command as a user meets it (TAP output for Automake's driver).
# Each case runs the command and checks its exit status and what it prints.
set -u
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

echo "1..13"
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

[ "$failed" -eq 0 ]
