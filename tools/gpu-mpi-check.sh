#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs on the GPU machine what tools/gpu-mpi-build.sh prepared here: shepard-grid and shepard-grid-mpi with Debian's
# GDAL and OpenMPI unpacked beside them (issues 16 and 17).
#   tools/gpu-mpi-check.sh unpack PART   unpacks a part's Debian packages into SHEPARD_MPI_ROOT (default
#                                        /tmp/shepard-mpi; kept while the machine stays warm: make the calls back to
#                                        back)
#   tools/gpu-mpi-check.sh run [PART]    unpacks the last part, then:
#     a. makes a synthetic layer of SHEPARD_MPI_CHECK_POINTS points (FlatGeobuf with its spatial index, by ogr2ogr);
#     b. shepard-grid with --gpus 0 against --gpus all: global AIDW (summation exact and auto) over a GRID² raster,
#        and an EXPORT² GTiff export (AIDW auto); wall times, their ratio, and the rasters compared bit for bit;
#     b'. where the export's time goes: a 1 x 1 grid (the fixed costs no GPU shortens) and the EXPORT² export
#        uncompressed and with DEFLATE on one core and on all, each on one GPU and on all;
#     c. shepard-grid-mpi under mpirun -np 1 and -np 2 (one GPU per rank with two GPUs; with one, both ranks share
#        it): global AIDW (summation exact) and local AIDW (max_points=16) over a MPI_GRID² raster in four tiles,
#        each raster against shepard-grid's on one GPU bit for bit, wall times and their ratio;
#     d. compute-sanitizer memcheck over small shepard-grid --gpus all runs (AIDW exact, through the far field and
#        max_points=16), and over each rank of a small shepard-grid-mpi run under mpirun -np 2.
# Prints a table, one row a run; exits non-zero when a run or a comparison fails. Everything printed also goes to
# $OUT/log.txt, the table to $OUT/summary.txt, each run's output and arrivals to $OUT/logs.tar.gz; the rasters stay in
# SHEPARD_MPI_WORK (default /tmp/shepard-mpi-work).
# Environment (the defaults sized for about 4 minutes on an H100, as estimated, not yet measured):
# SHEPARD_MPI_CHECK_POINTS (1000000), SHEPARD_MPI_CHECK_GRID (1024), SHEPARD_MPI_CHECK_EXPORT (16384),
# SHEPARD_MPI_CHECK_MPI_GRID (4096), SHEPARD_MPI_CHECK_STEPS (grid costs mpi memcheck: the steps to run, below),
# SHEPARD_MPI_CHECK_MPI_METHODS (global local: step c's methods; local alone for a layer too large for all points),
# SHEPARD_MPI_CHECK_MPI_OPTIONS (none: more options for every run of step c, e.g. -co COMPRESS=NONE),
# SHEPARD_MPI_CHECK_EXPORT_METHODS (aidw: the methods of step b's EXPORT² export, e.g. "aidw aidw:summation=exact"),
# SHEPARD_MPI_CHECK_TILE (MPI_GRID / 2: step c's --tile-size; "default" gives none, so that each run takes
# shepard-grid-mpi's own, which is smaller for two ranks on a node than for one),
# SHEPARD_MPI_CHECK_BACKEND (cuda; cpu runs every step but the sanitizer's on the
# CPU engine, with one engine where the GPU runs use --gpus 0 and all: the script's own test, which
# tools/gpu-mpi-build.sh --prove-here runs).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

root=${SHEPARD_MPI_ROOT:-/tmp/shepard-mpi}
packed=build-gpu-mpi/carry/programs.tar.xz

# unpack PART: the part's packages into $root, as files only (dpkg -x runs no install script).
unpack() {
  local deb
  mkdir -p "$root"
  for deb in "$1"/*.deb; do
    dpkg -x "$deb" "$root" || return 1
  done
  du -sh "$root"
}

case "${1-}" in
  unpack) [[ $# -eq 2 ]] || { echo "usage: $0 unpack PART" >&2; exit 2; }; unpack "$2"; exit ;;
  run) if [[ $# -ge 2 ]]; then unpack "$2" || exit 1; fi ;;
  *) echo "usage: $0 unpack PART | run [LAST_PART]" >&2; exit 2 ;;
esac

backend=${SHEPARD_MPI_CHECK_BACKEND:-cuda}
points=${SHEPARD_MPI_CHECK_POINTS:-1000000}
grid=${SHEPARD_MPI_CHECK_GRID:-1024}
export_cells=${SHEPARD_MPI_CHECK_EXPORT:-16384}
mpi_grid=${SHEPARD_MPI_CHECK_MPI_GRID:-4096}
# Four tiles, two for each of two ranks, unless SHEPARD_MPI_CHECK_TILE says otherwise.
tile=${SHEPARD_MPI_CHECK_TILE:-$((mpi_grid / 2))}
tile_option=(--tile-size "$tile")
[[ $tile == default ]] && tile_option=()
work=${SHEPARD_MPI_WORK:-/tmp/shepard-mpi-work}
out=${OUT:-/tmp/gpu-mpi-out}
mkdir -p "$out"
rm -rf "$work"
mkdir -p "$work/logs"
exec > >(tee "$out/log.txt") 2>&1

programs=$root/programs
rm -rf "$programs"
mkdir -p "$programs"
if ! tar -xJf "$packed" -C "$programs"; then
  echo "gpu-mpi-check: $packed is missing: run tools/gpu-mpi-build.sh here and carry build-gpu-mpi/carry." >&2
  exit 1
fi

# Debian's libraries for Debian's programs only (the GPU machine's own tools keep theirs). Some of GDAL's live in
# /usr/lib; BLAS, LAPACK and PSM are installed through alternatives, which dpkg -x does not make: their folders are
# named. OpenMPI finds its components, help files and settings from OPAL_PREFIX; PMIx has its folders compiled in
# (its PMIX_PREFIX moves none of them), so they are named one by one.
lib=$root/usr/lib/x86_64-linux-gnu
library_path=$lib:$lib/blas:$lib/lapack:$root/usr/lib:$root/usr/lib/libpsm1:$root/lib/x86_64-linux-gnu
staged=(env "LD_LIBRARY_PATH=$library_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  "OPAL_PREFIX=$root/usr" "OPAL_SYSCONFDIR=$root/etc/openmpi"
  "PMIX_PKGLIBDIR=$lib/pmix2/lib/pmix" "PMIX_PKGDATADIR=$lib/pmix2/share/pmix"
  "GDAL_DATA=$root/usr/share/gdal" "PROJ_DATA=$root/usr/share/proj"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
# libpsm-infinipath1 (OpenMPI's PSM and OFI components) leaves its soname's link to alternatives too.
for library in "$root"/usr/lib/libpsm1/libpsm_infinipath.so.1.*; do
  ln -sfn "${library##*/}" "${library%.so.1.*}.so.1"
done
mpirun=$root/usr/bin/orterun

rows=()
failed=0
# row STEP WALL RATIO RESULT: a line of the table; RESULT "ok" or "equal..." passes, anything else fails the run.
row() {
  rows+=("$(printf '%-50s %11s %6s  %s' "$1" "$2" "$3" "$4")")
  if [[ "$4" != ok* && "$4" != equal* ]]; then
    failed=1
  fi
}

# seconds_since START: the wall seconds since START (date +%s.%N), two decimals.
seconds_since() {
  awk -v start="$1" -v end="$(date +%s.%N)" 'BEGIN { printf "%.2f", end - start }'
}

# arrivals LOG TIMES START: copies its input to LOG as it comes, and writes to TIMES when each piece came (seconds
# since START, date +%s.%N, then the piece): where a run's time went, from its own lines and progress ticks.
arrivals() {
  python3 -u -c '
import sys, time
start = float(sys.argv[3])
with open(sys.argv[1], "wb") as log, open(sys.argv[2], "w") as times:
    while piece := sys.stdin.buffer.read1(65536):
        log.write(piece)
        log.flush()
        times.write("%.2f %r\n" % (time.time() - start, piece.decode(errors="replace")))
' "$1" "$2" "$3"
}

# stages NAME: when run NAME planned its grid, began and ended its progress bar (from its arrivals).
stages() {
  awk -v quote="'" '/Grid:/ && grid == "" { grid = $1 } $2 ~ "^" quote "0" && first == "" { first = $1 }
    /done/ { done = $1 } { last = $1 }
    END { printf "grid planned %s s, progress from %s s to %s s, last output %s s", grid, first, done, last }' \
    "$work/logs/$1.arrivals"
}

# timed NAME COMMAND...: runs a command, its output in $work/logs/NAME.log; sets seconds (wall) and status, and prints
# the log's end when it failed.
timed() {
  local name=$1 start
  shift
  local time_command=() peak=
  # GNU time, where there is one, for the peak memory (of the largest process: one rank under mpirun).
  if [[ -x /usr/bin/time ]]; then
    time_command=(/usr/bin/time -v -o "$work/logs/$name.time")
  fi
  start=$(date +%s.%N)
  "${time_command[@]}" "$@" 2>&1 | arrivals "$work/logs/$name.log" "$work/logs/$name.arrivals" "$start"
  status=${PIPESTATUS[0]}
  seconds=$(seconds_since "$start")
  if [[ -f "$work/logs/$name.time" ]]; then
    peak=$(awk '/Maximum resident set size/ { printf "%.0f MB", $NF / 1024 }' "$work/logs/$name.time")
  fi
  echo "gpu-mpi-check: $name: exit $status, $seconds s${peak:+, peak resident $peak}"
  grep -E '^(Backend|Summation|Peak memory)' "$work/logs/$name.log" | sed 's/^/  /'
  if ((status != 0)); then
    tail -n 20 "$work/logs/$name.log"
  fi
}

# compare EXPECTED ACTUAL: raster-compare's line (sets compared).
compare() {
  compared=$("${staged[@]}" "$programs/raster-compare" "$1" "$2" 2>&1 | tail -n 1)
}

# ratio ONE TWO: ONE / TWO, as "1.95x".
ratio() {
  awk -v one="$1" -v two="$2" 'BEGIN { printf "%.2fx", (two > 0 ? one / two : 0) }'
}

echo "gpu-mpi-check: backend $backend; $points points; GRID $grid², EXPORT $export_cells², MPI_GRID $mpi_grid²" \
  "in tiles of $tile${tile_option[*]:+²}"
echo "gpu-mpi-check: $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"

# Every library of the staged programs and components from the unpacked tree, but the C and C++ runtimes.
start=$SECONDS
outside=$(for file in "$programs"/* "$mpirun" "$root/usr/bin/orted" "$root/usr/bin/ogr2ogr" \
  "$lib"/openmpi/lib/openmpi3/*.so "$lib"/pmix2/lib/pmix/*.so; do
  "${staged[@]}" ldd "$file" | awk -v root="$root" -v file="${file##*/}" '
    /not found/ { print file ": " $1 " not found"; next }
    $3 ~ /^\// && index($3, root) != 1 &&
      $1 !~ /^(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|libresolv)\.so/ { print file ": " $1 " from " $3 }'
done | sort -u)
if [[ -n "$outside" ]]; then
  echo "$outside"
  row "libraries" "$((SECONDS - start))" "" "FAIL: $(wc -l <<<"$outside") not from $root (above)"
else
  row "libraries" "$((SECONDS - start))" "" "ok: all from $root"
fi

gpus=0
if [[ "$backend" == cuda ]]; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
  if ((gpus == 0)); then
    row "device" "" "" "FAIL: nvidia-smi lists no GPU"
  fi
fi

# --- a. the layer
layer=$work/points.fgb
start=$(date +%s.%N)
synthetic_points_csv "$points" >"$work/points.csv"
timed layer "${staged[@]}" "$root/usr/bin/ogr2ogr" -f FlatGeobuf -lco SPATIAL_INDEX=YES -a_srs EPSG:28992 \
  -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y -oo AUTODETECT_TYPE=YES "$layer" "$work/points.csv"
if ((status == 0)); then
  row "layer: $points points (FlatGeobuf)" "$(seconds_since "$start")" "" "ok: $(du -h "$layer" | cut -f1)"
else
  row "layer: $points points (FlatGeobuf)" "$seconds" "" "FAIL: ogr2ogr exit $status"
fi

# one_gpu / every_gpu: shepard-grid's options for one GPU and for all (the CPU engine both times on the CPU).
if [[ "$backend" == cuda ]]; then
  one_gpu=(--backend cuda --gpus 0)
  every_gpu=(--backend cuda --gpus all)
else
  one_gpu=(--backend cpu)
  every_gpu=(--backend cpu)
fi
# Not quiet: the reports name the engine (GPUs, threads), the summation and each rank's peak memory.
grid_options=(-zfield value)

# --- b. one GPU against all
# one_against_all NAME LABEL CELLS METHOD [OPTION...]: shepard-grid on one GPU, then on all; times, ratio, comparison.
one_against_all() {
  local name=$1 label=$2 cells=$3 method=$4 one_seconds
  shift 4
  timed "$name-one-gpu" "${staged[@]}" "$programs/shepard-grid" "${one_gpu[@]}" "${grid_options[@]}" -a "$method" \
    -outsize "$cells" "$cells" "$@" "$layer" "$work/$name-one-gpu.tif"
  one_seconds=$seconds
  local one_status=$status
  timed "$name-all-gpus" "${staged[@]}" "$programs/shepard-grid" "${every_gpu[@]}" "${grid_options[@]}" -a "$method" \
    -outsize "$cells" "$cells" "$@" "$layer" "$work/$name-all-gpus.tif"
  if ((one_status != 0 || status != 0)); then
    row "$label: --gpus 0 | all" "$one_seconds/$seconds" "" "FAIL: exit $one_status, $status"
  else
    compare "$work/$name-one-gpu.tif" "$work/$name-all-gpus.tif"
    row "$label: --gpus 0 | all" "$one_seconds/$seconds" "$(ratio "$one_seconds" "$seconds")" "$compared"
  fi
  rm -f "$work/$name-one-gpu.tif" "$work/$name-all-gpus.tif"
}

# step NAME: whether SHEPARD_MPI_CHECK_STEPS names the step (all of them by default).
step() {
  [[ " ${SHEPARD_MPI_CHECK_STEPS:-grid costs mpi memcheck} " == *" $1 "* ]]
}

if step grid; then
  one_against_all exact "grid aidw:summation=exact ${grid}^2" "$grid" aidw:summation=exact
  one_against_all auto "grid aidw ${grid}^2" "$grid" aidw
  # GDAL compresses the tiles on every core by default (NUM_THREADS=ALL_CPUS).
  for method in ${SHEPARD_MPI_CHECK_EXPORT_METHODS:-aidw}; do
    one_against_all "export-${method//[:=]/-}" "grid $method ${export_cells}^2" "$export_cells" "$method"
  done
fi

# --- b'. where an export's time goes, on one GPU and on all: what no GPU shortens (reading the layer, starting the
# GPUs, the nearest-point index: a 1 x 1 grid), and the export without compression beside the default one.
if step costs; then
  one_against_all cost "fixed costs (aidw 1^2)" 1 aidw
  one_against_all cost "aidw ${export_cells}^2, uncompressed" "$export_cells" aidw -co COMPRESS=NONE
  one_against_all cost "aidw ${export_cells}^2, DEFLATE on one core" "$export_cells" aidw -co NUM_THREADS=1
  one_against_all cost "aidw ${export_cells}^2, DEFLATE on every core" "$export_cells" aidw -co NUM_THREADS=ALL_CPUS
fi

# --- c. shepard-grid-mpi, one rank against two, each against shepard-grid on one GPU
# ranks NAME METHOD: the three runs and the two comparisons.
ranks() {
  local name=$1 method=$2 one_rank_seconds
  local more=()
  read -r -a more <<<"${SHEPARD_MPI_CHECK_MPI_OPTIONS-}"
  local what="mpi $method${more[*]:+ ${more[*]}} ${mpi_grid}^2"
  timed "$name-grid" "${staged[@]}" "$programs/shepard-grid" "${one_gpu[@]}" "${grid_options[@]}" "${more[@]}" \
    -a "$method" \
    -outsize "$mpi_grid" "$mpi_grid" "$layer" "$work/$name-grid.tif"
  if ((status != 0)); then
    row "$what: shepard-grid" "$seconds" "" "FAIL: exit $status"
    return
  fi
  echo "  stages: $(stages "$name-grid")"
  row "$what: shepard-grid" "$seconds" "" "ok"
  for count in 1 2; do
    timed "$name-np$count" "${staged[@]}" "$mpirun" --oversubscribe --bind-to none -np "$count" \
      "$programs/shepard-grid-mpi" "${tile_option[@]}" --backend "$backend" "${grid_options[@]}" "${more[@]}" \
      -a "$method" \
      -outsize "$mpi_grid" "$mpi_grid" "$layer" "$work/$name-np$count.vrt"
    local label="$what: -np $count"
    if ((status != 0)); then
      row "$label" "$seconds" "" "FAIL: exit $status"
      continue
    fi
    compare "$work/$name-grid.tif" "$work/$name-np$count.vrt"
    # A component or help file missing from the staging shows as a warning only.
    warning=$(grep -m1 -E 'WARNING|Sorry!|unable to open|cannot open' "$work/logs/$name-np$count.log")
    compared+=${warning:+; OpenMPI warned: $warning}
    compared+="; $(grep -m1 -o 'in [0-9]* tiles of [0-9]*' "$work/logs/$name-np$count.log")"
    echo "  stages: $(stages "$name-np$count")"
    if ((count == 1)); then
      one_rank_seconds=$seconds
      row "$label" "$seconds" "" "$compared"
    else
      row "$label" "$seconds" "$(ratio "$one_rank_seconds" "$seconds")" "$compared"
    fi
  done
}

if step mpi; then
  for kind in ${SHEPARD_MPI_CHECK_MPI_METHODS:-global local}; do
    case $kind in
      global) ranks global aidw:summation=exact ;;
      local) ranks local aidw:max_points=16 ;;
      *) row "mpi $kind" 0 "" "FAIL: SHEPARD_MPI_CHECK_MPI_METHODS names global and local only" ;;
    esac
  done
fi

# --- d. compute-sanitizer memcheck over several GPUs, and over each of two ranks
# memcheck_row LABEL NAME: a row of the memcheck run NAME, with its ERROR SUMMARY lines (one a process).
memcheck_row() {
  local summaries
  summaries=$(grep -o 'ERROR SUMMARY: .*' "$work/logs/$2.log" | sort | uniq -c | sed 's/^ *//' | paste -sd ';')
  if ((status == 0)); then
    row "$1" "$seconds" "" "ok: ${summaries:-no summary}"
  else
    row "$1" "$seconds" "" "FAIL: exit $status, ${summaries:-no summary}"
  fi
}

if [[ "$backend" == cuda ]] && step memcheck; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  memcheck=("$sanitizer" --tool memcheck --leak-check full --error-exitcode 9)
  small=(-oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y -outsize 256 256 "$work/small.csv")
  synthetic_points_csv 20000 >"$work/small.csv"
  for method in aidw:summation=exact aidw:summation=farfield aidw:max_points=16; do
    name=memcheck-${method//[:=]/-}
    timed "$name" "${memcheck[@]}" "${staged[@]}" "$programs/shepard-grid" "${every_gpu[@]}" "${grid_options[@]}" \
      -a "$method" "${small[@]}" "$work/memcheck.tif"
    memcheck_row "memcheck $method 256^2, $gpus GPU(s)" "$name"
  done
  timed memcheck-mpi "${staged[@]}" "$mpirun" --oversubscribe --bind-to none -np 2 "${memcheck[@]}" \
    "$programs/shepard-grid-mpi" --tile-size 128 --backend cuda "${grid_options[@]}" -a aidw:max_points=16 \
    "${small[@]}" "$work/memcheck.vrt"
  memcheck_row "memcheck mpi -np 2 aidw:max_points=16 256^2" memcheck-mpi
fi

echo "=== summary (wall seconds; a/b: one GPU or rank, then all GPUs or two ranks; ratio a/b)"
printf '%s\n' "${rows[@]}" | tee "$out/summary.txt"
# Every run's output and arrivals in one file: the device tool brings back only so many files.
tar -czf "$out/logs.tar.gz" -C "$work/logs" .
exit "$failed"
