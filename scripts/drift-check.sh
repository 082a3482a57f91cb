#!/usr/bin/env bash
# drift-check.sh: the drift check of docs/guides/gitops.md, for Terraform 1.5 and later and
# OpenTofu. Run it in the directory of an initialised configuration.
#
#   drift-check.sh [plan options]   plans (with refresh) and reports: the nightly drift job.
#                                   The options go to `plan` (-var-file=prod.tfvars, -lock=false).
#   drift-check.sh --plan FILE      reports on a plan saved already (`plan -out=FILE`): the
#                                   pull-request job's summary of what the plan changes.
#
# It reads the plan with the CLI's own `show -json` and decides from that JSON alone, because
# the exit codes of `plan -detailed-exitcode` do not tell drift apart: Terraform 1.11 exits 2
# for a refresh-only plan of any resource with a number attribute, Terraform 1.15 whenever the
# configuration has a data source, and the data sources of check blocks make every plan exit 2,
# while OpenTofu exits 0.
#
# Exit status:
#   0  no drift: the manager matches the state and the configuration, and every check passes
#   2  drift: names each resource changed outside Terraform or that apply would change, with
#      the attributes (sensitive values hidden); failing checks are listed too
#   3  no drift, but a check block's assertion failed (a health check)
#   1  error: the plan failed, or its JSON could not be read
#
# The CLI is $DRIFT_CHECK_CLI, else `terraform`, else `tofu` on PATH. Besides it the script
# needs only grep, awk and sort (no jq).
set -u

die() { echo "drift-check: $*" >&2; exit 1; }

cli="${DRIFT_CHECK_CLI:-}"
if [ -z "$cli" ]; then
  cli="$(command -v terraform || command -v tofu)" || die "no terraform or tofu on PATH; set DRIFT_CHECK_CLI"
fi

for arg in "$@"; do
  case "$arg" in
    -detailed-exitcode | -out=* | -json) die "$arg is the script's own business: leave it out" ;;
  esac
done

plan=""
saved="" # set when summarising a plan saved by someone else, which is expected to change things
if [ "${1:-}" = "--plan" ]; then
  [ $# -eq 2 ] || die "usage: $0 --plan FILE (a plan saved with plan -out=FILE; no plan options)"
  plan="$2" saved=1
  [ -f "$plan" ] || die "no saved plan at $plan"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/drift-check.XXXXXX")" || die "cannot create a temporary directory"
# A plan file and its JSON hold the state and the values of variables: what this script makes
# never outlives it.
trap 'rm -rf "$tmp"' EXIT

export TF_IN_AUTOMATION=1
if [ -z "$plan" ]; then
  plan="$tmp/drift.tfplan"
  if ! "$cli" plan -input=false -no-color -out="$plan" "$@" >"$tmp/plan.log" 2>&1; then
    cat "$tmp/plan.log" >&2
    die "$cli plan failed"
  fi
fi
if ! "$cli" show -json "$plan" >"$tmp/plan.json" 2>"$tmp/show.log"; then
  cat "$tmp/show.log" >&2
  die "$cli show -json failed"
fi

# The JSON as one token per line (a string, a number, a literal or a punctuation mark), so
# that awk reads it in linear time whatever its size. LC_ALL=C: bytes, not characters.
# shellcheck disable=SC2016 # awk's own $0, not the shell's
flatten='
# Keeps every scalar (and every empty object or array) of the sections that matter under its
# path, the keys and indices joined by "." (resource_drift.0.change.before.state).
function vpath(  p) {
  if (d == 0) return ""
  filled[d] = 1
  p = (typ[d] == "{") ? key[d] : idx[d]
  return (base[d] == "") ? p : base[d] "." p
}
function keep(p, v) {
  if (p ~ /^(resource_drift|resource_changes|checks)\./ || p == "format_version") leaf[p] = v
}
{
  t = $0
  if (t == ":") next
  if (t == ",") { if (typ[d] == "{") wantkey[d] = 1; else idx[d]++; next }
  if (t == "}" || t == "]") {
    if (!filled[d]) keep(base[d], t == "}" ? "{}" : "[]")
    d--
    next
  }
  if (typ[d] == "{" && wantkey[d]) { key[d] = substr(t, 2, length(t) - 2); wantkey[d] = 0; next }
  p = vpath()
  if (t == "{" || t == "[") {
    d++; typ[d] = t; base[d] = p; filled[d] = 0; idx[d] = 0; wantkey[d] = (t == "{")
    next
  }
  keep(p, t)
}

function hexval(h,  i, n) {
  n = 0
  for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
  return n
}
function utf8(c) {
  if (c < 128) return sprintf("%c", c)
  if (c < 2048) return sprintf("%c%c", 192 + int(c / 64), 128 + c % 64)
  return sprintf("%c%c%c", 224 + int(c / 4096), 128 + int(c / 64) % 64, 128 + c % 64)
}
# The text of a JSON string token, without its quotes and escapes.
function text(s,  out, i, c) {
  if (substr(s, 1, 1) != "\"") return s
  s = substr(s, 2, length(s) - 2)
  out = ""
  while ((i = index(s, "\\")) > 0) {
    out = out substr(s, 1, i - 1)
    c = substr(s, i + 1, 1)
    if (c == "u") { out = out utf8(hexval(substr(s, i + 2, 4))); s = substr(s, i + 6); continue }
    if (c == "n") c = "\n"; else if (c == "t") c = "\t"; else if (c == "r") c = "\r"
    else if (c == "b") c = "\b"; else if (c == "f") c = "\f"
    out = out c
    s = substr(s, i + 2)
  }
  return out s
}
# A value as the report shows it: strings in quotes, long ones cut.
function shown(v,  s) {
  s = (substr(v, 1, 1) == "\"") ? "\"" text(v) "\"" : v
  gsub(/\n/, "\\n", s)
  return length(s) > 120 ? substr(s, 1, 117) "..." : s
}
function sensitive(k, sub_,  n, parts, i, p) {
  if (sens[k, ""]) return 1
  n = split(sub_, parts, ".")
  p = ""
  for (i = 1; i <= n; i++) {
    p = (i == 1) ? parts[i] : p "." parts[i]
    if (sens[k, p]) return 1
  }
  return 0
}
# The value of an attribute on one side of a change, as JSON; "(none)" when that side has
# no such attribute.
function raw(k, sub_, side) {
  return ((k, sub_, side) in val) ? val[k, sub_, side] : "(none)"
}

END {
  if (!("format_version" in leaf)) { print "error\tthe output of show -json is no plan in JSON"; exit }
  for (p in leaf) {
    if (!match(p, /^[a-z_]+\.[0-9]+/)) continue
    sect = substr(p, 1, RSTART + RLENGTH - 1)   # resource_drift.3
    rest = substr(p, RLENGTH + 2)
    v = leaf[p]
    if (sect ~ /^checks\./) {
      if (rest == "address.to_display") name[sect] = text(v)
      else if (rest == "status") status[sect] = text(v)
      else if (rest ~ /^instances\.[0-9]+\.problems\.[0-9]+\.message$/) problems[sect] = problems[sect] "\n" text(v)
      continue
    }
    entry[sect] = 1
    if (rest == "address") addr[sect] = text(v)
    else if (rest == "mode") mode[sect] = text(v)
    else if (rest ~ /^change\.actions\.[0-9]+$/) { action[sect, substr(rest, 16) + 0] = text(v); nactions[sect]++ }
    else if (rest ~ /^change\.(before|after)_sensitive($|\.)/) {
      if (v != "true") continue
      s = rest; sub(/^change\.(before|after)_sensitive\.?/, "", s)
      sens[sect, s] = 1
    } else if (rest ~ /^change\.after_unknown\./) {
      if (v != "true") continue
      s = rest; sub(/^change\.after_unknown\./, "", s)
      unknown[sect, s] = 1; attr[sect, s] = 1
    } else if (rest ~ /^change\.(before|after)\./) {
      side = (rest ~ /^change\.before\./) ? "before" : "after"
      s = rest; sub(/^change\.(before|after)\./, "", s)
      val[sect, s, side] = v; attr[sect, s] = 1
    }
  }
  for (k in attr) {
    split(k, kp, SUBSEP)
    sect = kp[1]; s = kp[2]
    b = raw(sect, s, "before"); a = raw(sect, s, "after")
    if (b == a && !unknown[sect, s]) continue
    changed[sect] = 1
    if (sensitive(sect, s)) detail = s ": (sensitive value changed)"
    else detail = s ": " shown(b) " -> " (unknown[sect, s] ? "(known after apply)" : shown(a))
    lines[sect] = lines[sect] "\n" detail
  }
  for (sect in entry) {
    if (mode[sect] != "managed") continue
    acts = ""
    for (i = 0; i < nactions[sect]; i++) acts = acts (i ? "," : "") action[sect, i]
    if (sect ~ /^resource_drift\./) {
      # A drift entry whose attributes all match is no drift (a CLI may list one after
      # comparing numbers of different precision).
      if (acts == "delete") out("drift", addr[sect], "deleted outside Terraform")
      else if (changed[sect]) emit("drift", sect, "")
    } else if (acts != "no-op" && acts != "read") {
      if (acts == "create") out("change", addr[sect], "to be created")
      else if (acts == "delete") out("change", addr[sect], "to be destroyed")
      else if (changed[sect]) emit("change", sect, acts == "update" ? " (update)" : " (replace)")
      else out("change", addr[sect], acts)
    }
  }
  for (c in status) {
    if (status[c] != "fail" && status[c] != "error") continue
    msg = substr(problems[c], 2)
    if (msg == "") msg = "(" status[c] ", no message)"
    gsub(/\n/, " / ", msg)
    out("check", name[c], msg)
  }
}
# emit reports the changed attributes of one entry, the address followed by note.
function emit(kind, sect, note,  n, ls, i) {
  n = split(substr(lines[sect], 2), ls, "\n")
  for (i = 1; i <= n; i++) out(kind, addr[sect] note, ls[i])
}
function out(kind, what, detail) {
  gsub(/\t/, " ", detail)
  print kind "\t" what "\t" detail
}
'

export LC_ALL=C
grep -oE '"([^"\\]|\\.)*"|[][{}:,]|-?[0-9][0-9.eE+-]*|true|false|null' "$tmp/plan.json" >"$tmp/tokens" ||
  die "the output of $cli show -json holds no JSON"
awk "$flatten" "$tmp/tokens" | sort -u >"$tmp/report" || die "reading the plan's JSON failed"

if grep -q '^error' "$tmp/report"; then
  die "$(awk -F '\t' '$1 == "error" { print $2 }' "$tmp/report")"
fi

# section KIND TITLE: the report lines of one kind, grouped by address.
section() {
  awk -F '\t' -v kind="$1" '$1 == kind { found = 1 } END { exit !found }' "$tmp/report" || return 1
  printf '\n%s\n' "$2"
  awk -F '\t' -v kind="$1" '$1 == kind {
    if ($2 != last) { printf "  %s\n", $2; last = $2 }
    printf "      %s\n", $3
  }' "$tmp/report"
}

version="$("$cli" version 2>/dev/null | sed -n 1p)"
status=0
if section drift "Changed outside Terraform (the refresh found these differences from the state):"; then status=2; fi
if section change "Apply would change (the manager differs from the configuration):"; then status=2; fi
if section check "Failing checks:" && [ "$status" -eq 0 ]; then status=3; fi
echo
case "$status$saved" in
  0) echo "drift-check: no drift, every check passes ($version)" ;;
  2) echo "drift-check: DRIFT: the manager differs from the state or the configuration ($version)" ;;
  3) echo "drift-check: no drift, but a health check fails ($version)" ;;
  01) echo "drift-check: the plan changes nothing, every check passes ($version)" ;;
  21) echo "drift-check: the plan changes the manager ($version)" ;;
  31) echo "drift-check: the plan changes nothing, but a health check fails ($version)" ;;
esac
exit "$status"
