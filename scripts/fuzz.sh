#!/usr/bin/env bash
# Runs every Go fuzz target of the module briefly: `go test -run '^$' -fuzz '^<Target>$'`
# once per target (go test fuzzes one target per invocation). Targets are found in the
# packages' *_test.go files (`func FuzzXxx(f *testing.F)`), so a new one is picked up
# without editing this script.
#
# Exits non-zero when a target fails (or when none is found). go test then writes the
# failing input to <package>/testdata/fuzz/<Target>/<hash>; this script prints that path and
# the command that re-runs it. While the file exists, plain `go test` runs it as a test case
# too: fix the bug and keep the file as a regression case, or delete it.
#
# Environment:
#   FUZZTIME          -fuzztime per target: a number of inputs (default 20000x, about 7 to 20 s
#                     a target here) or a duration ("10s"). The default is a count because Go
#                     before 1.27 can fail a duration run with a bare "context deadline exceeded"
#                     at its end, no input at fault (golang/go#75804: the coordinator's deadline
#                     races a busy worker; it failed CI here once on two loaded cores). A count
#                     sets no deadline, so that race cannot happen.
#   FUZZMINIMIZETIME  -fuzzminimizetime (default 5s): caps the minimisation of new inputs
#   FUZZ_TARGETS      space-separated target names to run instead of all of them
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
fuzztime="${FUZZTIME:-20000x}"
minimizetime="${FUZZMINIMIZETIME:-5s}"
logdir="$repo/.build/fuzz"
mkdir -p "$logdir"

# "<Target> <package dir>" for every fuzz target of the module's packages.
targets=()
while IFS= read -r dir; do
  for file in "$dir"/*_test.go; do
    [ -e "$file" ] || continue
    while IFS= read -r name; do
      targets+=("$name ${dir#"$repo"/}")
    done < <(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(f \*testing\.F\).*/\1/p' "$file")
  done
done < <(go list -f '{{.Dir}}' ./...)

if [ -n "${FUZZ_TARGETS:-}" ]; then
  wanted=" $FUZZ_TARGETS "
  selected=()
  for t in "${targets[@]}"; do
    [[ "$wanted" == *" ${t%% *} "* ]] && selected+=("$t")
  done
  targets=("${selected[@]}")
fi
if [ "${#targets[@]}" -eq 0 ]; then
  echo "fuzz: no fuzz targets found" >&2
  exit 1
fi

t0=$SECONDS
for t in "${targets[@]}"; do
  name="${t%% *}"
  pkg="./${t#* }/"
  log="$logdir/$name.log"
  printf 'fuzz: %s in %s, -fuzztime %s\n' "$name" "$pkg" "$fuzztime"
  if go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimizetime" "$pkg" >"$log" 2>&1; then
    # The last progress line carries the total, e.g. "fuzz: elapsed: 10s, execs: 21734 (2173/sec), ...".
    grep -E '^fuzz: elapsed: .*execs: ' "$log" | tail -n 1 | sed 's/^/  /' || true
    continue
  fi
  echo "fuzz: $name FAILED; output (also in ${log#"$repo"/}):" >&2
  sed 's/^/  | /' "$log" >&2
  # A new failing input is written to testdata/fuzz/<Target>/<hash>; an input already there
  # (a committed regression case) fails as the subtest <Target>/<hash>.
  input="$(sed -nE 's/.*Failing input written to (testdata\/fuzz\/[^[:space:]]+).*/\1/p' "$log" | tail -n 1)"
  if [ -n "$input" ]; then
    echo "fuzz: failing input written to ${pkg#./}$input" >&2
  else
    while IFS= read -r hash; do
      if [ -f "${pkg}testdata/fuzz/$name/$hash" ]; then
        input="testdata/fuzz/$name/$hash"
        echo "fuzz: the failing input is in the corpus: ${pkg#./}$input" >&2
      fi
    done < <(sed -nE "s/.*(seed corpus entry: |--- FAIL: )$name\/([0-9a-f]+).*/\2/p" "$log" | sort -u)
  fi
  if [ -n "$input" ]; then
    echo "fuzz: re-run it with: go test -run '^$name/${input##*/}\$' $pkg" >&2
  fi
  exit 1
done
echo "fuzz: ${#targets[@]} target(s) passed in $((SECONDS - t0)) s"
