#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Shepard QGIS plugin (qgis/shepard, a Processing provider) into a QGIS 3 profile and enables it.
# Usage: tools/install-qgis-plugin.sh [--link] [--profile NAME] [--tools-folder DIR]
#   --link              link the profile's copy to qgis/shepard instead of copying it (for working on the plugin)
#   --profile NAME      the QGIS profile (default: default)
#   --tools-folder DIR  set the provider's "Shepard folder" to DIR, the folder that holds shepard-grid and
#                       shepard-cv (e.g. build/app); '' clears it, so that they are found on PATH; without the
#                       option the setting stays as it was (at first: PATH)
# The profiles are in $QGIS_CUSTOM_CONFIG_PATH/profiles when that is set, else in ~/.local/share/QGIS/QGIS3/profiles.
set -euo pipefail
link=false
profile=default
set_tools_folder=false
tools_folder=
usage() {
  echo "usage: $0 [--link] [--profile NAME] [--tools-folder DIR]" >&2
  exit 2
}
while (($#)); do
  case "$1" in
    --link) link=true ;;
    --profile)
      (($# >= 2)) || usage
      profile=$2
      shift
      ;;
    --tools-folder)
      (($# >= 2)) || usage
      set_tools_folder=true
      tools_folder=${2:+$(realpath "$2")}
      shift
      ;;
    *) usage ;;
  esac
  shift
done
# After the arguments: it moves to the repository root, and a relative DIR means the caller's folder.
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Debian 12's qgis_process wrapper passes the desktop application's --noversioncheck, which qgis_process refuses
# (qgis/QGIS#57683): use the program behind it when the wrapper does not work.
qgis_process=(qgis_process)
if ! QT_QPA_PLATFORM=offscreen qgis_process --version >/dev/null 2>&1; then
  if command -v qgis_process.bin >/dev/null; then
    qgis_process=(qgis_process.bin)
  else
    echo "install-qgis-plugin: qgis_process does not run; install QGIS 3.22 or newer (Debian: apt-get install qgis python3-qgis)." >&2
    exit 1
  fi
fi

profiles=${QGIS_CUSTOM_CONFIG_PATH:-${XDG_DATA_HOME:-$HOME/.local/share}/QGIS/QGIS3}
profiles=${profiles%/}/profiles
plugins="$profiles/$profile/python/plugins"
target="$plugins/shepard"
mkdir -p "$plugins"
rm -rf "$target"
if [[ "$link" == true ]]; then
  ln -s "$PWD/qgis/shepard" "$target"
else
  mkdir "$target"
  find qgis/shepard -maxdepth 1 -type f \( -name '*.py' -o -name metadata.txt -o -name '*.svg' \) \
    -exec cp {} "$target/" \;
fi
echo "install-qgis-plugin: installed the plugin in $target"

if [[ "$set_tools_folder" == true ]]; then
  # QGIS's Python modules belong to the system's Python, which may not be the first python3 on PATH (pyenv...).
  qgis_python=
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import qgis.PyQt.QtCore' 2>/dev/null; then
      qgis_python=$candidate
      break
    fi
  done
  if [[ -z "$qgis_python" ]]; then
    echo "install-qgis-plugin: no python3 here imports QGIS's modules; install python3-qgis." >&2
    exit 1
  fi
  # Processing keeps its provider settings in the profile's QGIS3.ini (Processing/Configuration/NAME).
  "$qgis_python" - "$profiles/$profile/QGIS/QGIS3.ini" "$tools_folder" <<'PY'
import sys

from qgis.PyQt.QtCore import QSettings

settings = QSettings(sys.argv[1], QSettings.IniFormat)
if sys.argv[2]:
    settings.setValue("Processing/Configuration/SHEPARD_FOLDER", sys.argv[2])
else:
    settings.remove("Processing/Configuration/SHEPARD_FOLDER")
settings.sync()
PY
  echo "install-qgis-plugin: Shepard folder set to ${tools_folder:-nothing (PATH)}"
fi

if [[ "$profile" != default ]]; then
  echo "install-qgis-plugin: enable it in QGIS (Plugins > Manage and Install Plugins > Installed > Shepard) when you use profile $profile."
  exit 0
fi
# It fails with "Plugin is already enabled!" on a reinstall, which is success here.
if ! enable_output=$(QT_QPA_PLATFORM=offscreen "${qgis_process[@]}" plugins enable shepard 2>&1) \
  && [[ "$enable_output" != *"already enabled"* ]]; then
  echo "$enable_output" >&2
  echo "install-qgis-plugin: qgis_process could not enable the plugin; enable it in QGIS (Plugins > Manage and Install Plugins > Installed > Shepard)." >&2
  exit 1
fi
echo "install-qgis-plugin: enabled the plugin; its algorithms are in the Processing Toolbox under Shepard."
