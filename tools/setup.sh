#!/usr/bin/env bash
# Installs what fluid needs to build, run and test on Debian 12 (run as root, or with sudo).
# Does nothing when every package is already there.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libglfw3-dev libepoxy-dev libcglm-dev libstb-dev   # window, GL loader, math, PNG + fonts
  libegl-dev libegl1 libgl1-mesa-dri                 # headless EGL, Mesa llvmpipe
  fonts-dejavu-core                                  # the HUD's font
  xvfb xauth                                         # the window tests (X server without a display)
  ffmpeg                                             # --video (and ffprobe for its test)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
