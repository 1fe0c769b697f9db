# shellcheck shell=bash
# The bundled recordings' gaps, RECORDING:EXPERIMENT, each with its reason
# (sourced by the e2e parts that replay every experiment): a test checks
# that replaying one says so instead of showing it. None today: the H200's
# recording took the coalescing, bank, transpose and stream-ordered
# allocator experiments in parts recorded on an H200 (docs/recordings.md).
GAPS=" "
