#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds and runs the whole test suite twice: in build/ (debugoptimized, benchmarks built too) and in build-sanitize/
# under AddressSanitizer (leak detection on) and UndefinedBehaviorSanitizer; then fuzzes the parsers for 20 s each
# (tools/fuzz.sh in build-fuzz/; FUZZ_SECONDS sets the time). Ends with one line "N passed, N failed, N skipped" over
# both builds and the fuzzing (one test), where a build that fails to set up or compile counts as one failure. Exits
# non-zero when anything failed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

./tools/install-deps.sh

passed=0
failed=0
skipped=0

# count_results BUILD_DIR MESON_TEST_STATUS: adds the results of BUILD_DIR's meson test log to the totals.
count_results() {
  local build_dir=$1 meson_status=$2 counts build_passed build_failed build_skipped
  counts=$(python3 - "$build_dir/meson-logs/testlog.json" <<'PY'
import json
import sys

passed = failed = skipped = 0
with open(sys.argv[1], encoding='utf-8') as log:
    for line in log:
        result = json.loads(line)['result']
        if result in ('OK', 'EXPECTEDFAIL'):
            passed += 1
        elif result == 'SKIP':
            skipped += 1
        else:
            failed += 1
print(passed, failed, skipped)
PY
  )
  read -r build_passed build_failed build_skipped <<<"$counts"
  if ((meson_status != 0 && build_failed == 0)); then
    echo "test.sh: meson test failed in $build_dir/ (exit status $meson_status) with no failed test in its log; counted as one failure." >&2
    build_failed=1
  fi
  echo "test.sh: $build_dir/: $build_passed passed, $build_failed failed, $build_skipped skipped"
  passed=$((passed + build_passed))
  failed=$((failed + build_failed))
  skipped=$((skipped + build_skipped))
}

# build_and_test BUILD_DIR [MESON_SETUP_OPTION...]
build_and_test() {
  local build_dir=$1
  shift
  if ! configure_build "$build_dir" "$@" || ! ninja -C "$build_dir"; then
    echo "test.sh: $build_dir/ did not build, so its tests did not run; counted as one failure." >&2
    failed=$((failed + 1))
    return
  fi
  local log="$build_dir/meson-logs/testlog.json" meson_status=0
  rm -f "$log"
  meson test -C "$build_dir" --print-errorlogs --num-processes 2 || meson_status=$?
  if [[ ! -s "$log" ]]; then
    echo "test.sh: meson test in $build_dir/ wrote no results (exit status $meson_status); counted as one failure." >&2
    failed=$((failed + 1))
    return
  fi
  count_results "$build_dir" "$meson_status"
}

build_and_test build -Dbuildtype=debugoptimized -Dbenchmarks=true

# A sanitizer report ends the test at once with status 99, which no test takes for an expected error exit.
# allocator_may_return_null: GDAL and our engine turn a failed huge allocation into an error, as glibc lets them.
# protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap would be.
# GLib's slice allocator would hide leaks and use-after-free from ASan.
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:exitcode=99:allocator_may_return_null=1:protect_shadow_gap=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
export G_SLICE=always-malloc G_DEBUG=gc-friendly
build_and_test build-sanitize \
  -Db_sanitize=address,undefined -Db_lundef=false -Ddebug=true -Doptimization=1

# Fuzzing our parsers (tests/fuzz, libFuzzer with ASan and UBSan, in build-fuzz/): the seed corpora and the saved
# regressions replayed, then each target fuzzed for a short while. Counted as one test; FUZZ_SECONDS=0 only replays.
echo "test.sh: fuzzing the parsers for ${FUZZ_SECONDS:-20} s each (tools/fuzz.sh)"
if ./tools/fuzz.sh "${FUZZ_SECONDS:-20}"; then
  passed=$((passed + 1))
else
  echo "test.sh: tools/fuzz.sh found a crash, a leak or a broken invariant, or did not build; counted as one failure." >&2
  failed=$((failed + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
