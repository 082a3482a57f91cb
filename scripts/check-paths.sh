#!/usr/bin/env bash
# check-paths (make check-paths, CI): no file of the repository may name a path that exists only on a
# developer's machine: a home or work directory, or the folder beside the repository that the interface was
# once read from. The repository is self-contained; the interface it follows is in api/.
#   scripts/check-paths.sh [DIR]     check the git repository DIR (default: this repository); list each
#                                    offending file:line and exit 1, else print a one-line summary
#   scripts/check-paths.sh --self-test   check the check: a throw-away repository with offending and clean files
#
# Checked: every file git tracks or would add (git ls-files -co --exclude-standard), as text; binary files
# (grep -I) and *.sum files are skipped; a symbolic link is checked by its target.
# Flagged (PATTERN): absolute paths under /work, /root, /home, /farm or /Users (not when the slash follows a
# letter, digit, _ or ., so "$tmp/work/" and "./home/" are fine), Windows user folders (drive letter, colon,
# backslash, Users, backslash) and the sibling shared folder reached with "../". Allowed: the system paths
# scripts use (/tmp, /usr/bin/env, /dev/null, /etc, /proc, /var, /opt), URLs and repository-relative paths.
set -euo pipefail

readonly PATTERN='(^|[^A-Za-z0-9_.])/(work|root|home|farm|Users)/|[A-Za-z]:\\{1,2}Users\\|\.\./shared([^A-Za-z0-9_-]|$)'

self="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"

check() {
  local dir="$1"
  cd "$dir"
  cd "$(git rev-parse --show-toplevel)"

  local files=() hits="" f target rc
  while IFS= read -r -d '' f; do
    case "$f" in
      *.sum) continue ;;
    esac
    if [ -L "$f" ]; then
      target="$(readlink "$f")"
      if printf '%s\n' "$target" | grep -qE -e "$PATTERN"; then
        hits+="$f: symbolic link to $target"$'\n'
      fi
    elif [ -f "$f" ]; then
      files+=("$f")
    fi
  done < <(git ls-files -z -co --exclude-standard | sort -zu)

  if [ "${#files[@]}" -gt 0 ]; then
    rc=0
    # -I: skip binary files; -H -n: file:line; cut long lines to keep the report readable.
    hits+="$(grep -IHnE -e "$PATTERN" -- "${files[@]}" | cut -c1-240)" || rc=$?
    # grep exits 1 when nothing matched, 2 on an error (with pipefail, cut's status is 0).
    [ "$rc" -le 1 ] || { echo "check-paths: grep failed (exit status $rc)" >&2; return 2; }
  fi

  if [ -n "$hits" ]; then
    echo "check-paths: these lines name a path outside the repository (cite api/rest-interface.md," \
      "api/decisions.md or another repository path instead):" >&2
    printf '%s\n' "${hits%$'\n'}" >&2
    return 1
  fi
  echo "check-paths: ${#files[@]} files (tracked or to be added), no absolute paths outside the repository"
}

self_test() {
  local tmp n=0 sep='/' bs='\' out=""
  # A hook or a wrapper may point git elsewhere; the throw-away repository must be its own.
  unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CEILING_DIRECTORIES
  tmp="$(mktemp -d)"
  # Expanded now on purpose: tmp is local to this function.
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  git -c init.defaultBranch=main init -q "$tmp/repo"
  cd "$tmp/repo"

  # expect WANT LABEL: run the check on the throw-away repository, compare pass/fail with WANT.
  expect() {
    local want="$1" label="$2" rc=0
    out="$(bash "$self" "$tmp/repo" 2>&1)" || rc=$?
    if { [ "$want" = pass ] && [ "$rc" -ne 0 ]; } || { [ "$want" = fail ] && [ "$rc" -ne 1 ]; }; then
      echo "check-paths self-test: FAILED: $label: want $want, got exit status $rc:" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi
    n=$((n + 1))
  }

  # Clean files: system paths, relative paths, URLs; a go.sum and a binary file are not read.
  cat >clean.sh <<'EOF'
#!/usr/bin/env bash
tmp="$(mktemp -d /tmp/x.XXXXXX)"; cp ./work/a "$tmp/work/b" 2>/dev/null; cat /etc/os-release /proc/cpuinfo
see api/rest-interface.md and https://example.com/home/index.html; cache in ~/.cache
EOF
  # The offending text is assembled here, so that this script does not flag itself.
  printf 'h1:%shome%suser/x\n' "$sep" "$sep" >go.sum
  printf 'bin\0%swork%sx\n' "$sep" "$sep" >blob.bin
  git add -A
  expect pass "clean files only"

  # Each kind of offending path, alone in an otherwise clean repository, fails the check.
  local bad
  for bad in "${sep}work${sep}main/x.go" "${sep}root${sep}.cache" "see ${sep}home${sep}dev/notes.md" \
    "(${sep}farm${sep}spec)" "${sep}Users${sep}dev/src" \
    "C:${bs}Users${bs}dev${bs}src" "\"C:${bs}${bs}Users${bs}${bs}dev\"" \
    "..${sep}shared${sep}spec/x.md" "(..${sep}shared beside it)"; do
    printf 'first line\n%s\n' "$bad" >bad.md
    git add bad.md
    expect fail "a file naming $bad"
    case "$out" in
      *"bad.md:2:"*) ;;
      *) echo "check-paths self-test: FAILED: report does not name bad.md:2: $out" >&2; exit 1 ;;
    esac
    git rm -q --cached bad.md
    rm bad.md
  done

  # An untracked file that git would add is checked too; an ignored one is not.
  printf '%swork%sx\n' "$sep" "$sep" >new.txt
  expect fail "an untracked, not ignored file"
  echo new.txt >.gitignore
  expect pass "an ignored file"

  # A symbolic link to a path outside the repository.
  ln -s "${sep}home${sep}dev/spec" link
  expect fail "a symbolic link to a home directory"
  rm link
  expect pass "clean again"

  echo "check-paths self-test: $n cases passed"
}

case "${1:-}" in
  --self-test) self_test ;;
  -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$self" ;;
  "") check "$(dirname "$self")/.." ;;
  *) check "$1" ;;
esac
