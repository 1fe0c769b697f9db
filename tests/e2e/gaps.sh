# shellcheck shell=bash
# The bundled recordings' gaps, RECORDING:EXPERIMENT, each with its reason
# (sourced by the e2e parts that replay every experiment): a test checks
# that replaying one says so instead of showing it.
#  - h100.gtr.gz: recorded before the managed and texture experiments
#    existed; no H100 has been at hand since.
GAPS=" h100.gtr.gz:managed h100.gtr.gz:texture "
