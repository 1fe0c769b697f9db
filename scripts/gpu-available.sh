#!/usr/bin/env bash
# gpu-available.sh BIN - exit 0 when BIN finds a usable CUDA device.
"${1:-build/gputui}" --list-devices >/dev/null 2>&1
