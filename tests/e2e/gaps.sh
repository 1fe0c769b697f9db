# shellcheck shell=bash
# The bundled recordings' gaps, RECORDING:EXPERIMENT, each with its reason
# (sourced by the e2e parts that replay every experiment): a test checks
# that replaying one says so instead of showing it.
#  - h100.gtr.gz: recorded before the managed and texture experiments
#    existed; no H100 has been at hand since.
#  - h200.gtr.gz: texture's recording was made on a kernel twice as slow
#    as the one that ships (its linear-memory figures would mislead); it
#    waits for the next session on an H200.
GAPS=" h100.gtr.gz:managed h100.gtr.gz:texture h200.gtr.gz:texture "
