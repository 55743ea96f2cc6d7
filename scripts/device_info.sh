#!/usr/bin/env bash
# The device and the build of a recording: the GPU's name, driver and memory (nvidia-smi) and `bsde --version`, which
# names the commit the binary was built from (the GPU host's copy of .git may be stale).
# usage: scripts/device_info.sh [BSDE] > device.txt   (BSDE: the binary, default build/bin/bsde)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
"${1:-build/bin/bsde}" --version
