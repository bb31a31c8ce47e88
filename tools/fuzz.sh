#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets of tests/fuzz in build-fuzz/ (clang, AddressSanitizer and UndefinedBehaviorSanitizer),
# replays each target's seed corpus and saved regressions once, then fuzzes each target for SECONDS (default 600) and
# writes a summary (runs, exec/s, coverage, corpus, findings) to build-fuzz/fuzz-summary.txt and stdout.
# Each target runs with its dictionary tests/fuzz/TARGET.dict. New inputs go to build-fuzz/fuzz-corpus/TARGET/
# (tests/fuzz/corpus/TARGET/ is only read), crashes and leaks to
# build-fuzz/fuzz-artifacts/TARGET/: copy one into tests/fuzz/regressions/TARGET/ to replay it in every later run.
# Exits non-zero when the build failed or a replay or a run found anything.
# Usage: tools/fuzz.sh [--parallel N] [SECONDS] [TARGET...]   (targets: fuzz-method-spec fuzz-command-line
#        fuzz-extent fuzz-option-lists; all by default; SECONDS 0: the replay only; --parallel: how many run at
#        once, 1 by default)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_dir=build-fuzz
all_targets=(fuzz-method-spec fuzz-command-line fuzz-extent fuzz-option-lists)

usage() {
  echo "usage: $0 [--parallel N] [SECONDS] [TARGET...]; targets: ${all_targets[*]}" >&2
  exit 2
}

parallel=1
if [[ "${1-}" == --parallel ]]; then
  [[ "${2-}" =~ ^[1-9][0-9]*$ ]] || usage
  parallel=$2
  shift 2
fi
seconds=600
if [[ "${1-}" =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
elif [[ "${1-}" == -* ]]; then
  usage
fi
targets=("$@")
((${#targets[@]} > 0)) || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] || usage
done

if ! command -v clang >/dev/null; then
  echo "fuzz: clang is not installed (tools/install-deps.sh installs it)." >&2
  exit 1
fi
if [[ ! -f "$build_dir/meson-private/coredata.dat" ]]; then
  export CC=clang
fi
configure_build "$build_dir" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized \
  -Dcuda=disabled -Dgui=disabled -Dbenchmarks=false >/dev/null
ninja -C "$build_dir" "${all_targets[@]/#/tests/fuzz/}"

# GLib's criticals and warnings abort inside the targets (fuzz-support.c); a sanitizer report ends the run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

echo "fuzz: replaying the seed corpora and tests/fuzz/regressions"
replay_status=0
meson test -C "$build_dir" --no-rebuild --print-errorlogs --suite fuzz "${targets[@]}" || replay_status=$?

# run_target TARGET: fuzzes TARGET for $seconds; its log is build-fuzz/fuzz-logs/TARGET.log.
run_target() {
  local target=$1
  local corpus="$build_dir/fuzz-corpus/$target" artifacts="$build_dir/fuzz-artifacts/$target"
  mkdir -p "$corpus" "$artifacts" "$build_dir/fuzz-logs"
  # -timeout: one input running for seconds is a hang; -rss_limit_mb: far above what a parser needs; the dictionary
  # gives the mutations the options' names and numbers at the edges of double and int, which they rarely spell.
  "$build_dir/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="tests/fuzz/$target.dict" -artifact_prefix="$artifacts/" "$corpus" "tests/fuzz/corpus/$target" \
    >"$build_dir/fuzz-logs/$target.log" 2>&1
}

# summarise TARGET STATUS: one line of the summary from TARGET's log.
summarise() {
  local target=$1 status=$2 log="$build_dir/fuzz-logs/$1.log" last runs speed finding
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  finding=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
  if [[ "$status" == 0 ]]; then
    finding=none
  elif [[ -z "$finding" ]]; then
    finding="exit status $status, no input saved (see $log)"
  fi
  printf '%-18s %6ss %12s runs %8s exec/s  cov %5s  ft %6s  corpus %6s  finding: %s\n' "$target" "$seconds" \
    "${runs:-?}" "${speed:-?}" "$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")" \
    "$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")" "$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")" \
    "$finding"
}

if ((seconds == 0)); then
  # libFuzzer reads -max_total_time=0 as no limit: 0 here means the replay only.
  exit $((replay_status == 0 ? 0 : 1))
fi
echo "fuzz: ${targets[*]}, $seconds s each, $parallel at a time"
declare -A statuses pids
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do
    wait -n || true
  done
  run_target "$target" &
  pids[$target]=$!
done
for target in "${targets[@]}"; do
  statuses[$target]=0
  wait "${pids[$target]}" || statuses[$target]=$?
done

summary="$build_dir/fuzz-summary.txt"
{
  echo "tools/fuzz.sh $seconds, $(date -u '+%Y-%m-%d %H:%M UTC'), $(clang --version | head -n 1)"
  if ((replay_status == 0)); then
    echo "replay of the seed corpora and regressions: passed"
  else
    echo "replay of the seed corpora and regressions: FAILED (meson test -C $build_dir --suite fuzz)"
  fi
  for target in "${targets[@]}"; do
    summarise "$target" "${statuses[$target]}"
  done
} | tee "$summary"

((replay_status == 0)) || exit 1
for target in "${targets[@]}"; do
  ((statuses[$target] == 0)) || exit 1
done
