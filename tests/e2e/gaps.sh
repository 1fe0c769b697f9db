# shellcheck shell=bash
# The bundled recordings' gaps, RECORDING:EXPERIMENT, each with its reason
# (sourced by the e2e parts that replay every experiment): a test checks
# that replaying one says so instead of showing it.
#  - h200.gtr.gz: recorded before the coalescing, bank, transpose and
#    stream-ordered allocator experiments existed; every GPU lent since
#    has been an H100.
GAPS=" h200.gtr.gz:coalesce h200.gtr.gz:banks h200.gtr.gz:transpose h200.gtr.gz:pool "
