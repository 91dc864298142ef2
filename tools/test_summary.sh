#!/usr/bin/env bash
# Runs `cargo test` (arguments are passed on) and ends with what ran: how many tests passed,
# failed and were ignored (by name, with the reason), and every part-of-the-machine skip the
# tests recorded (tests/common/mod.rs, `skip`: PostgreSQL, initdb, gnugo, …) with the reason and
# how to get the part. Exits with cargo's status; with STRICT_SKIPS=1 (CI) also fails when a test
# skipped anything or an ignored test is not one CI runs on its own (CI_RUNS_IGNORED, names
# separated by spaces).
set -uo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
skips="$target/parlor-skips"
rm -rf "$skips"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

cargo test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# "test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in …"
read -r passed failed ignored binaries < <(awk '
  /^test result:/ {
    for (i = 1; i <= NF; i++) {
      if ($(i+1) ~ /^passed;/) p += $i
      if ($(i+1) ~ /^failed;/) f += $i
      if ($(i+1) ~ /^ignored;/) g += $i
    }
    n++
  }
  END { print p+0, f+0, g+0, n+0 }' "$log")
skipped=0
[ -s "$skips/skips.txt" ] && skipped=$(wc -l <"$skips/skips.txt")
echo
echo "=============================== test summary ==============================="
echo "tests: $passed passed (of which $skipped skipped a part and ran nothing), $failed failed, $ignored ignored, in $binaries test binaries"
# "test path::name ... ignored, reason" (libtest prints the reason when the attribute has one)
ignored_names=$(sed -n 's/^test \(.*\) \.\.\. ignored\(, \(.*\)\)\{0,1\}$/\1|\3/p' "$log")
if [ -n "$ignored_names" ]; then
  echo "ignored (marked #[ignore]):"
  while IFS='|' read -r name reason; do echo "  - $name${reason:+: $reason}"; done <<<"$ignored_names"
fi
if [ "$skipped" -gt 0 ]; then
  echo "skipped at run time for a missing part ($skipped; CI fails on these instead):"
  sed 's/^/  - /' "$skips/skips.txt"
else
  echo "skipped at run time for a missing part: none"
fi
echo "============================================================================"

if [ "${STRICT_SKIPS:-0}" = 1 ]; then
  if [ "$skipped" -gt 0 ]; then
    echo "test_summary: $skipped skipped test(s) in a strict run" >&2
    status=1
  fi
  while IFS='|' read -r name _; do
    [ -z "$name" ] && continue
    case " ${CI_RUNS_IGNORED:-} " in
      *" ${name##*::} "*) ;;
      *) echo "test_summary: ignored test $name is not run anywhere in CI" >&2; status=1 ;;
    esac
  done <<<"$ignored_names"
fi
exit "$status"
