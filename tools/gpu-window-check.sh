#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs on the GPU machine what tools/gpu-window-build.sh prepared here: the whole application on the NVIDIA driver, as
# users with NVIDIA cards run it. Xvfb provides the X server; the GL context comes from NVIDIA's GLX
# (__GLX_VENDOR_LIBRARY_NAME=nvidia), the engine from CUDA on the same GPU.
#   tools/gpu-window-check.sh unpack PART   unpacks a part's Debian packages into /opt/deb (kept while the machine
#                                           stays warm: make the calls back to back)
#   tools/gpu-window-check.sh run PART      unpacks the last part, then:
#     1. glxinfo, and the desktop application opened on meuse: a screenshot of the screen (screen.xwd);
#     2. the render tests on an EGL context of the NVIDIA driver (asked for 3.2 core, as GTK asks), test-interop under
#        compute-sanitizer memcheck;
#     3. the window's GPU paths (tests/ui/test-window-gpu): interop, pixels, hover, the copy-failure fallback, an export
#        on CUDA, memory over 500 parameter changes, each GPU choice of Preferences; its instruments on CUDA
#        (tests/ui/test-window-instruments); the mask and no-data cells through interop (tests/ui/test-mask,
#        tests/ui/test-neighbourhood); the busy signs on CUDA (tests/ui/test-window-state's busy-sign test);
#     4. shepard-grid on CUDA against the CPU (tests/cli/test-cli-cuda): meuse and 1M points, progress, Ctrl-C;
#     5. frame times in the real window (shepard-bench-window), also with the driver's sync to vblank off.
# Everything it prints also goes to $OUT/log.txt; screenshots come back as $OUT/*.png or .xwd. The last lines are a
# summary, one per step.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
out=${OUT:-/tmp/gpu-window-out}
mkdir -p "$out"

unpack () {
  mkdir -p /opt/deb
  for deb in "$1"/*.deb; do dpkg -x "$deb" /opt/deb; done
  du -sh /opt/deb
}

case "${1-}" in
  unpack) unpack "$2"; exit 0 ;;
  run) unpack "$2" ;;
  *) echo "usage: $0 unpack PART | run LAST_PART" >&2; exit 2 ;;
esac

exec > >(tee "$out/log.txt") 2>&1
programs=/tmp/shepard-gpu
rm -rf "$programs"; mkdir -p "$programs"
tar -xJf build-gpu-window/carry/programs.tar.xz -C "$programs"

lib=/opt/deb/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$lib:/opt/deb/lib/x86_64-linux-gnu:/opt/deb/usr/lib:$lib/blas:$lib/lapack
mkdir -p /usr/share/X11 /usr/share/fonts /etc/fonts
ln -sfn /opt/deb/usr/share/X11/xkb /usr/share/X11/xkb
ln -sf /opt/deb/usr/bin/xkbcomp /usr/bin/xkbcomp
ln -sfn /opt/deb/usr/share/fonts/truetype /usr/share/fonts/truetype
cp -rn /opt/deb/etc/fonts/* /etc/fonts/ 2>/dev/null
# What the packages' install scripts would have made, which dpkg -x does not run: gdk-pixbuf's cache of its loaders
# (GTK's SVG icons), naming their paths under /opt/deb, and the MIME database gdk-pixbuf recognises SVG by.
"$lib/gdk-pixbuf-2.0/gdk-pixbuf-query-loaders" "$lib"/gdk-pixbuf-2.0/2.10.0/loaders/*.so >/tmp/pixbuf-loaders.cache
export GDK_PIXBUF_MODULE_FILE=/tmp/pixbuf-loaders.cache
/opt/deb/usr/bin/update-mime-database /opt/deb/usr/share/mime
LIBGL_DRIVERS_PATH=$lib/dri /opt/deb/usr/bin/Xvfb :7 -screen 0 1400x900x24 -nolisten tcp +extension GLX \
  >"$out/xvfb.log" 2>&1 &
xvfb=$!
sleep 3

export DISPLAY=:7 GDK_BACKEND=x11 GTK_A11Y=none GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=$programs \
  XDG_DATA_DIRS=/opt/deb/usr/share GDAL_DATA=/opt/deb/usr/share/gdal PROJ_DATA=/opt/deb/usr/share/proj \
  __GLX_VENDOR_LIBRARY_NAME=${SHEPARD_GLX_VENDOR:-nvidia} \
  SHEPARD_SOURCE_ROOT=$PWD G_TEST_SRCDIR=$PWD/tests G_TEST_BUILDDIR=/tmp/shepard-shots
mkdir -p "$G_TEST_BUILDDIR"
summary=()
# step NAME COMMAND...: runs it with its output in /tmp/NAME.log (and here), and notes its exit status and, for a TAP
# test program, its counts.
step () {
  local name=$1 status counts
  shift
  echo "=== $name: $*"
  "$@" >"/tmp/$name.log" 2>&1
  status=$?
  cat "/tmp/$name.log"
  counts=$(awk '/^ok .*# SKIP/ { s++; next } /^ok / { o++ } /^not ok/ { f++ }
    END { if (o + f + s > 0) printf "%d ok, %d not ok, %d skipped", o, f, s }' "/tmp/$name.log")
  summary+=("$(printf '%-24s exit %-3d %s' "$name" "$status" "$counts")")
}

nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
/opt/deb/usr/bin/glxinfo -B | grep -E 'renderer string|core profile version|OpenGL version string'

# 1. The application as a user starts it, and a screenshot after it has drawn.
"$programs/shepard" --field zinc data/meuse.csv >"$out/app.log" 2>&1 &
app=$!
sleep "${SHOT_AFTER:-12}"
/opt/deb/usr/bin/xwd -root -silent >"$out/screen.xwd"
kill "$app" 2>/dev/null
wait "$app" 2>/dev/null
echo "=== the application's log:"; cat "$out/app.log"
summary+=("$(printf '%-24s %s' "application screenshot" "$(du -h "$out/screen.xwd" | cut -f1)")")

# 2. render/ on the NVIDIA driver's EGL (a 3.2 core context, as GTK asks for), then interop under memcheck.
# Only these get the NVIDIA EGL vendor: GTK on X11 tries EGL first, and the NVIDIA EGL driver cannot open an Xvfb
# display, so the window programs must find no EGL vendor and go on to GLX.
egl_nvidia=(env __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
step test-renderer "${egl_nvidia[@]}" "$programs/test-renderer"
step test-interop "${egl_nvidia[@]}" "$programs/test-interop"
step memcheck-interop "${egl_nvidia[@]}" "$sanitizer" --tool memcheck --leak-check full --error-exitcode 9 \
  "$programs/test-interop"

# 3. The window's GPU paths.
# SHEPARD_TEST_EXPECT_GL: the context GTK gets from the NVIDIA driver is exactly the 3.2 core it asks for.
step test-window-gpu env SHEPARD_TEST_EXPECT_GL=3.2 "$programs/test-window-gpu"
# The instruments with the engine on CUDA: cross-validation figures, explanations, the alpha surface through interop,
# the residual map, the optimiser and the sandbox.
step test-window-instruments "$programs/test-window-instruments"
# The mask and the neighbourhood's no-data cells on the interop path: the surface stays on the GPU and the shader
# drops the masked cells through the mask texture.
step test-mask "$programs/test-mask"
step test-neighbourhood "$programs/test-neighbourhood"
# The busy signs (the header bar's, the cross-validation panel's) spin while the GPU computes, and stand still only
# while the CPU works (reading the layer).
step busy-signs "$programs/test-window-state" -p /ui/state/busy-sign-spares-the-cpu
cp "$G_TEST_BUILDDIR"/screenshots/*/*.png "$out/" 2>/dev/null

# 4. The command line on CUDA against the CPU.
step test-cli-cuda "$programs/test-cli-cuda" "$programs/shepard-grid"

# 5. Frame times inside the window.
# shellcheck disable=SC2086 # the arguments are words
step shepard-bench-window "$programs/shepard-bench-window" ${SHEPARD_BENCH_WINDOW_ARGS-}
cp /tmp/shepard-bench-window.log "$out/bench-window.txt"
# The same without the driver's sync to vertical blank, which holds each swap to the display's (here emulated)
# refresh: what remains is the application's own latency.
# GPU_WINDOW_QUICK: leave it out when device time is short.
if [[ -z ${GPU_WINDOW_QUICK-} ]]; then
  step bench-window-no-vsync env __GL_SYNC_TO_VBLANK=0 "$programs/shepard-bench-window" --sizes 100,1000 \
    --previews 384
  cp /tmp/bench-window-no-vsync.log "$out/bench-window-no-vsync.txt"
fi

kill "$xvfb" 2>/dev/null
echo "=== summary"
printf '%s\n' "${summary[@]}"
