#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17's run on a machine with two GPUs or more (the device tool's nvidia-h200-x2 or nvidia-h100-x2), after
# tools/gpu-build.sh: tools/gpu-check.sh with every engine on every GPU (the engine's default), so that the engine's
# tests, memcheck over the multi-GPU tests and a benchmark run, and the multi-GPU benchmark (one GPU against all:
# times, ratio, difference; test-multi-gpu proves several GPUs equal bit for bit) run there; the single-GPU
# benchmarks are left out. Logs as gpu-check.sh's.
# Usage: tools/gpu-multi-check.sh    (the device tool: kind nvidia-h200-x2, carry ["build-gpu/carry", ".gpu-debs"])
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if ((gpus < 2)); then
  echo "gpu-multi-check: this machine has $gpus GPU(s); run it on one with two or more (nvidia-h200-x2)." >&2
  exit 1
fi
GPU_CHECK_SKIP="${GPU_CHECK_SKIP:-racecheck synccheck initcheck benchmark cv-benchmark optimiser-benchmark preview-benchmark}" \
  GPU_CHECK_SANITIZE="${GPU_CHECK_SANITIZE:-test-multi-gpu test-gpu-set test-device-grid}" \
  exec tools/gpu-check.sh
