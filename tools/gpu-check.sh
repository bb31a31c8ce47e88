#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs on the GPU test machine, in the repository root, what tools/gpu-build.sh built and staged: (1) the engine's
# tests against the CUDA backend and render/'s GL and interop tests, (2) compute-sanitizer memcheck and racecheck over
# the CUDA backend's, the device grid's, the interop and the cross-validation tests (test-cuda*, test-device-grid*,
# test-interop, test-cross-validation) and a small benchmark run, synccheck and initcheck over that run, (3) the CUDA
# benchmark, (3b) the multi-GPU benchmark (every GPU beside the first), (4) the cross-validation benchmark
# (leave-one-out on the GPU beside the CPU, with the goals), (5) the optimiser benchmark, (6) the preview frame-time
# benchmark (engine -> CUDA-OpenGL interop -> drawn frame). Logs go to
# $OUT (build-gpu/check-out when unset): gpu-check.log (everything), sanitizer.log, bench.txt, bench.csv,
# bench-cv.txt, bench-multi-gpu.txt, bench-optimise.txt, bench-preview.txt, bench-preview.csv and summary.txt. Prints the benchmarks' tables and a summary last; exits non-zero if any step
# failed or found no device (or no GL context).
# Usage: tools/gpu-check.sh    (the device tool: carry ["build-gpu/carry", ".gpu-debs"], timeout_s 600)
# Environment: GPU_CHECK_SECONDS (time for all steps, default 540), GPU_CHECK_SANITIZE (test programs to sanitize),
# GPU_CHECK_BENCH_ARGS (arguments of the full benchmark run, default none: every size), GPU_CHECK_PREVIEW_ARGS
# (arguments of the preview benchmark, default none: 10K, 100K and 1M points at 1024 x 1024), GPU_CHECK_MULTI_ARGS
# (arguments of the multi-GPU benchmark, default none: 1M points, 1024^2 and a 16384^2 export), GPU_CHECK_CV_ARGS
# (arguments of the cross-validation benchmark, default none), GPU_CHECK_SKIP (steps to leave out, e.g. "benchmark
# preview-benchmark" when the kernels they time did not change: each is listed as skipped, which fails nothing).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
if [[ -d /usr/local/cuda/bin ]]; then
  PATH="/usr/local/cuda/bin:$PATH"
fi

# gpu-build.sh packs the programs into carry/programs.tar.xz; they are unpacked next to it.
packed=build-gpu/carry/programs.tar.xz
carry_dir=build-gpu/programs
debs_dir=.gpu-debs
private_root=/tmp/gpu-root
out=${OUT:-build-gpu/check-out}
deadline=$((SECONDS + ${GPU_CHECK_SECONDS:-540}))
read -ra skip_steps <<<"${GPU_CHECK_SKIP:-}"
# is_skipped STEP: whether GPU_CHECK_SKIP names the step.
is_skipped() {
  local step
  for step in "${skip_steps[@]}"; do
    if [[ "$step" == "$1" ]]; then
      return 0
    fi
  done
  return 1
}
# Time kept for the benchmarks while the earlier steps run: what each took on an H100 (CUDA benchmark 85 s,
# cross-validation benchmark 9 s, preview benchmark about 30 s) with some slack, no more, so that the sanitizers,
# which run before them, are not starved within the default 540 s; a sanitizer run gets at most sanitize_cap seconds.
bench_reserve=110
cv_reserve=25
preview_reserve=45
if is_skipped benchmark; then
  bench_reserve=0
fi
if is_skipped cv-benchmark; then
  cv_reserve=0
fi
if is_skipped preview-benchmark; then
  preview_reserve=0
fi
# A test program's limit: test-interpolation and test-multi-gpu take about 120 s each on an H100 host (2026-11-27).
test_timeout=200
sanitize_cap=150
# compute-sanitizer does not support CUDA Dynamic Parallelism ("not supported by the selected tool"): the CDP variant,
# a benchmark-only reproduction of Mei (2014), stays out of the sanitizer runs; cdp-idw-check checks its results.
small_bench=(--sizes 1 --repeat 1 --skip-local --skip-cdp)

mkdir -p "$out"
log=$out/gpu-check.log
sanitizer_log=$out/sanitizer.log
: >"$log"
: >"$sanitizer_log"

summary=()
failed=0
device_reason=

say() {
  echo "gpu-check: $*" | tee -a "$log"
}

# record STEP STATUS SECONDS DETAIL: a line of the summary; any status but ok and skipped fails the run.
record() {
  summary+=("$(printf '%-22s %-9s %5s  %s' "$1" "$2" "$3" "$4")")
  say "$1: $2 ($4)"
  if [[ "$2" != ok && "$2" != skipped ]]; then
    failed=1
  fi
}

# skip STEP: records the step as skipped when GPU_CHECK_SKIP names it; true then.
skip() {
  if is_skipped "$1"; then
    record "$1" skipped 0 "GPU_CHECK_SKIP"
    return 0
  fi
  return 1
}

seconds_left() {
  echo $((deadline - SECONDS))
}

# The test environment of tests/meson.build, for programs run outside meson.
test_env=(
  SHEPARD_TEST_BACKEND=cuda
  G_TEST_SRCDIR="$PWD/tests/compute"
  G_TEST_BUILDDIR="$PWD/$carry_dir/tests"
  GSETTINGS_BACKEND=memory
  GTK_A11Y=none
  SHEPARD_SOURCE_ROOT="$PWD"
  SHEPARD_BUILD_ROOT="$PWD/build-gpu"
)

# --- runtime libraries: Debian's GLib in a private prefix, found through LD_LIBRARY_PATH
start=$SECONDS
if [[ -f "$packed" ]]; then
  rm -rf "$carry_dir"
  mkdir -p "$carry_dir"
  tar -xJf "$packed" -C "$carry_dir" >>"$log" 2>&1
fi
if ! compgen -G "$carry_dir/tests/test-*" >/dev/null || [[ ! -x "$carry_dir/bench/shepard-bench-cuda" ]]; then
  record "programs" FAIL 0 "nothing in $carry_dir: run tools/gpu-build.sh and carry build-gpu/carry and $debs_dir"
  printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
  exit 1
fi
libraries_ok=true
if compgen -G "$debs_dir/*.deb" >/dev/null; then
  for deb in "$debs_dir"/*.deb; do
    dpkg -x "$deb" "$private_root" >>"$log" 2>&1 || libraries_ok=false
  done
  private_libraries=$private_root/usr/lib/x86_64-linux-gnu:$private_root/lib/x86_64-linux-gnu
  export LD_LIBRARY_PATH="$private_libraries${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
missing=$(for program in "$carry_dir"/tests/* "$carry_dir"/bench/*; do ldd "$program"; done 2>&1 |
  awk '/not found/ { print $1 }' | sort -u | tr '\n' ' ')
if [[ "$libraries_ok" != true || -n "$missing" ]]; then
  record "runtime libraries" FAIL $((SECONDS - start)) \
    "missing: ${missing:-a package did not unpack} (staged: $debs_dir)"
else
  glib=$(ldd "$(compgen -G "$carry_dir/tests/test-*" | head -n 1)" | awk '/libglib/ { print $3 }')
  record "runtime libraries" ok $((SECONDS - start)) "GLib: ${glib:-not needed}"
fi

# --- device
start=$SECONDS
if ! command -v nvidia-smi >/dev/null; then
  device_reason="nvidia-smi is not installed"
elif ! nvidia-smi >>"$log" 2>&1; then
  device_reason="nvidia-smi failed (see gpu-check.log)"
elif [[ -z "$(nvidia-smi -L 2>/dev/null)" ]]; then
  device_reason="nvidia-smi lists no GPU"
fi
if [[ -n "$device_reason" ]]; then
  record "device" FAIL $((SECONDS - start)) "no device: $device_reason"
else
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv | tee -a "$log"
  record "device" ok $((SECONDS - start)) "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader |
    head -n 1)"
fi

# join ITEM...: the items separated by "; ".
join() {
  local IFS=$'\x1f'
  local joined="$*"
  echo "${joined//$'\x1f'/; }"
}

# no_device STEP: records a CUDA step as not run when there is no device; true then.
no_device() {
  if [[ -n "$device_reason" ]]; then
    record "$1" "no device" 0 "$device_reason"
    return 0
  fi
  return 1
}

# --- (1) the engine's tests against the CUDA backend
start=$SECONDS
if ! no_device "tests (cuda backend)"; then
  programs=0 passed=0 not_ok=0 skipped=0 failures=()
  for program in "$carry_dir"/tests/test-*; do
    name=${program##*/}
    echo "=== $name (SHEPARD_TEST_BACKEND=cuda)" >>"$log"
    output=$(env "${test_env[@]}" timeout --kill-after=10 "$test_timeout" "$program" --tap 2>&1)
    status=$?
    echo "$output" >>"$log"
    programs=$((programs + 1))
    passed=$((passed + $(grep -Ec '^ok ' <<<"$output")))
    not_ok=$((not_ok + $(grep -Ec '^not ok ' <<<"$output")))
    skipped=$((skipped + $(grep -Eic '^(ok .*# skip|1\.\.0 # skip)' <<<"$output")))
    if ((status == 124)); then
      failures+=("$name (cut off after $test_timeout s)")
    elif ((status != 0)); then
      failures+=("$name (exit $status)")
    fi
    if ((status != 0)); then
      echo "--- $name failed; its last lines:"
      tail -n 15 <<<"$output"
    fi
  done
  detail="$programs programs: $passed ok (skips included), $not_ok not ok, $skipped skipped"
  if ((${#failures[@]} > 0)); then
    record "tests (cuda backend)" FAIL $((SECONDS - start)) "$detail; failing: $(join "${failures[@]}")"
  else
    record "tests (cuda backend)" ok $((SECONDS - start)) "$detail"
  fi
fi

start=$SECONDS
if [[ -x "$carry_dir/bench/cdp-idw-check" ]] && ! no_device "cdp-idw-check"; then
  output=$(timeout --kill-after=10 60 "$carry_dir/bench/cdp-idw-check" 2>&1)
  status=$?
  echo "=== cdp-idw-check" >>"$log"
  echo "$output" >>"$log"
  if ((status == 0)); then
    record "cdp-idw-check" ok $((SECONDS - start)) "$(tail -n 1 <<<"$output")"
  else
    record "cdp-idw-check" FAIL $((SECONDS - start)) "exit $status: $(tail -n 1 <<<"$output")"
  fi
fi

# --- (2) compute-sanitizer
# By default the CUDA backend's own tests, which run every kernel variant, and the tests of results kept on the GPU
# and of CUDA-OpenGL interop (these need the EGL environment exported above: LD_LIBRARY_PATH and
# __EGL_VENDOR_LIBRARY_FILENAMES, which compute-sanitizer passes on); the engine tests under SHEPARD_TEST_BACKEND=cuda
# can be added by name (GPU_CHECK_SANITIZE="test-cuda* test-interpolation"); the cross-validation tests are (their float32
# cases run on the GPU). Names that match no program are left out.
read -ra sanitize_names <<<"${GPU_CHECK_SANITIZE:-test-cuda* test-device-grid* test-interop test-cross-validation}"
sanitize_programs=()
for name in "${sanitize_names[@]}"; do
  for program in "$carry_dir"/tests/$name; do
    if [[ -x "$program" ]]; then
      sanitize_programs+=("$program")
    fi
  done
done

# sanitize TOOL PROGRAM ARGS...: runs one program under a compute-sanitizer tool and adds to the tool's tally; any
# reported error, a failing program or a run cut off by the time left for it is a problem.
sanitize() {
  local tool=$1 limit output status errors
  shift
  limit=$(($(seconds_left) - bench_reserve - cv_reserve - preview_reserve))
  if ((limit > sanitize_cap)); then
    limit=$sanitize_cap
  fi
  if ((limit < 10)); then
    sanitize_problems+=("${1##*/}: no time left")
    return
  fi
  local options=(--tool "$tool" --error-exitcode 99 --print-limit 20)
  if [[ "$tool" == memcheck ]]; then
    options+=(--leak-check full)
  fi
  echo "=== compute-sanitizer ${options[*]} $*" >>"$sanitizer_log"
  output=$(env "${test_env[@]}" SHEPARD_TEST_CUDA_MAX_POINTS=5000 timeout --kill-after=10 "$limit" \
    compute-sanitizer "${options[@]}" "$@" 2>&1)
  status=$?
  echo "$output" >>"$sanitizer_log"
  errors=$(grep -Eo 'ERROR SUMMARY: [0-9]+' <<<"$output" | awk '{ total += $3 } END { print total + 0 }')
  sanitize_runs=$((sanitize_runs + 1))
  sanitize_errors=$((sanitize_errors + errors))
  if ((status == 124)); then
    sanitize_problems+=("${1##*/}: cut off after $limit s")
  elif ((status != 0 || errors != 0)); then
    sanitize_problems+=("${1##*/}: exit $status, $errors errors")
  fi
}

bench_program=$carry_dir/bench/shepard-bench-cuda
for tool in memcheck racecheck synccheck initcheck; do
  start=$SECONDS
  if skip "$tool" || no_device "$tool"; then
    continue
  fi
  if ! command -v compute-sanitizer >/dev/null; then
    record "$tool" FAIL 0 "compute-sanitizer is not installed"
    continue
  fi
  sanitize_runs=0 sanitize_errors=0 sanitize_problems=()
  if [[ "$tool" == memcheck || "$tool" == racecheck ]]; then
    for program in "${sanitize_programs[@]}"; do
      sanitize "$tool" "$program" --tap
    done
  fi
  sanitize "$tool" "$bench_program" "${small_bench[@]}"
  detail="$sanitize_runs runs, $sanitize_errors errors reported"
  if ((${#sanitize_problems[@]} > 0)); then
    record "$tool" FAIL $((SECONDS - start)) "$detail; $(join "${sanitize_problems[@]}")"
  else
    record "$tool" ok $((SECONDS - start)) "$detail"
  fi
done

# --- (3) the benchmark
start=$SECONDS
if ! skip "benchmark" && ! no_device "benchmark"; then
  limit=$(($(seconds_left) - cv_reserve - preview_reserve - 5))
  if ((limit < 60)); then
    limit=60
  fi
  # shellcheck disable=SC2086 # GPU_CHECK_BENCH_ARGS is a list of arguments
  timeout --kill-after=10 "$limit" "$bench_program" ${GPU_CHECK_BENCH_ARGS:-} --csv "$out/bench.csv" 2>>"$log" |
    tee "$out/bench.txt"
  status=${PIPESTATUS[0]}
  no_cuda=$(grep -m 1 '^no CUDA device' "$out/bench.txt")
  if ((status == 124)); then
    record "benchmark" FAIL $((SECONDS - start)) "cut off after $limit s"
  elif ((status != 0)); then
    record "benchmark" FAIL $((SECONDS - start)) "exit $status (1: a result disagrees with float64)"
  elif [[ -n "$no_cuda" ]]; then
    record "benchmark" FAIL $((SECONDS - start)) "$no_cuda"
  else
    record "benchmark" ok $((SECONDS - start)) "table above; $out/bench.csv"
  fi
fi

# --- (3b) several GPUs: an engine on every GPU beside one on the first, equal bit for bit (on a machine with one GPU,
# two backends on it: the multi-GPU path, no faster)
start=$SECONDS
multi_program=$carry_dir/bench/shepard-bench-multi-gpu
if skip "multi-gpu-benchmark"; then
  :
elif [[ ! -x "$multi_program" ]]; then
  record "multi-gpu-benchmark" FAIL 0 "$multi_program was not carried: run tools/gpu-build.sh"
elif ! no_device "multi-gpu-benchmark"; then
  multi_args=()
  if (($(nvidia-smi -L | grep -c '^GPU') < 2)); then
    multi_args=(--pair)
  fi
  limit=$(($(seconds_left) - cv_reserve - preview_reserve - 5))
  if ((limit < 30)); then
    limit=30
  fi
  # shellcheck disable=SC2086 # GPU_CHECK_MULTI_ARGS is a list of arguments
  timeout --kill-after=10 "$limit" "$multi_program" "${multi_args[@]}" ${GPU_CHECK_MULTI_ARGS:-} 2>>"$log" |
    tee "$out/bench-multi-gpu.txt"
  status=${PIPESTATUS[0]}
  if ((status == 124)); then
    record "multi-gpu-benchmark" FAIL $((SECONDS - start)) "cut off after $limit s"
  elif ((status != 0)); then
    record "multi-gpu-benchmark" FAIL $((SECONDS - start)) "exit $status (1: one GPU and all differ)"
  else
    record "multi-gpu-benchmark" ok $((SECONDS - start)) "table above; $out/bench-multi-gpu.txt"
  fi
fi
# --- (4) the cross-validation benchmark: leave-one-out on the GPU beside the CPU float32 path, and the CPU goals
start=$SECONDS
cv_program=$carry_dir/bench/shepard-bench-cv
if skip "cv-benchmark"; then
  :
elif [[ ! -x "$cv_program" ]]; then
  record "cv-benchmark" FAIL 0 "$cv_program was not carried: run tools/gpu-build.sh"
elif ! no_device "cv-benchmark"; then
  limit=$(($(seconds_left) - preview_reserve - 5))
  if ((limit < 30)); then
    limit=30
  fi
  # shellcheck disable=SC2086 # GPU_CHECK_CV_ARGS is a list of arguments
  env SHEPARD_SOURCE_ROOT="$PWD" timeout --kill-after=10 "$limit" "$cv_program" ${GPU_CHECK_CV_ARGS:-} 2>>"$log" |
    tee "$out/bench-cv.txt"
  status=${PIPESTATUS[0]}
  no_cuda=$(grep -m 1 '^no CUDA device' "$out/bench-cv.txt")
  goals="$(grep -cE ' met( |$)' "$out/bench-cv.txt") goals met, $(grep -c 'MISSED' "$out/bench-cv.txt") missed"
  if ((status == 124)); then
    record "cv-benchmark" FAIL $((SECONDS - start)) "cut off after $limit s"
  elif ((status != 0)); then
    record "cv-benchmark" FAIL $((SECONDS - start)) "exit $status (1: a GPU prediction disagrees with the CPU)"
  elif [[ -n "$no_cuda" ]]; then
    record "cv-benchmark" FAIL $((SECONDS - start)) "$no_cuda"
  else
    record "cv-benchmark" ok $((SECONDS - start)) "$goals; $out/bench-cv.txt"
  fi
fi

# --- (5) the optimiser on 10K points (local AIDW) on the GPU beside the CPU, with its goal (<= 2 s on the GPU)
start=$SECONDS
optimise_program=$carry_dir/bench/shepard-bench-optimise
if skip "optimiser-benchmark"; then
  :
elif [[ ! -x "$optimise_program" ]]; then
  record "optimiser-benchmark" FAIL 0 "$optimise_program was not carried: run tools/gpu-build.sh"
elif ! no_device "optimiser-benchmark"; then
  timeout --kill-after=10 60 "$optimise_program" 2>>"$log" | tee "$out/bench-optimise.txt"
  status=${PIPESTATUS[0]}
  if ((status != 0)); then
    record "optimiser-benchmark" FAIL $((SECONDS - start)) "exit $status"
  else
    record "optimiser-benchmark" ok $((SECONDS - start)) "$out/bench-optimise.txt"
  fi
fi

# --- (6) the preview benchmark: a parameter change to a drawn 1024 x 1024 frame, through interop and through upload
start=$SECONDS
preview_program=$carry_dir/bench/shepard-bench-preview
if skip "preview-benchmark"; then
  :
elif [[ ! -x "$preview_program" ]]; then
  record "preview benchmark" FAIL 0 "$preview_program was not carried: run tools/gpu-build.sh"
elif ! no_device "preview benchmark"; then
  limit=$(($(seconds_left) - 5))
  if ((limit < 30)); then
    limit=30
  fi
  # shellcheck disable=SC2086 # GPU_CHECK_PREVIEW_ARGS is a list of arguments
  timeout --kill-after=10 "$limit" "$preview_program" ${GPU_CHECK_PREVIEW_ARGS:-} --csv "$out/bench-preview.csv" \
    2>>"$log" | tee "$out/bench-preview.txt"
  status=${PIPESTATUS[0]}
  # Here a GL context and interop are expected: the program's exit 0 without them is for machines without a GPU.
  not_run=$(grep -m 1 -E '^no (CUDA device|GL context|CUDA-OpenGL interop)' "$out/bench-preview.txt")
  goal=$(grep -m 1 '^goal: ' "$out/bench-preview.txt")
  if ((status == 124)); then
    record "preview benchmark" FAIL $((SECONDS - start)) "cut off after $limit s"
  elif ((status != 0)); then
    record "preview benchmark" FAIL $((SECONDS - start)) \
      "exit $status (1: the device grid or the drawn frame disagrees with the upload path)"
  elif [[ -n "$not_run" ]]; then
    record "preview benchmark" FAIL $((SECONDS - start)) "$not_run"
  else
    record "preview benchmark" ok $((SECONDS - start)) "${goal#goal: }; $out/bench-preview.csv"
  fi
fi

{
  echo
  echo "gpu-check summary ($((SECONDS)) s; logs in $out):"
  printf '%-22s %-9s %5s  %s\n' step result s detail
  printf '%s\n' "${summary[@]}"
} | tee "$out/summary.txt"
exit "$failed"
