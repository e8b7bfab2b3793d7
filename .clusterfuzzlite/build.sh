#!/bin/bash -eu
# build.sh — ClusterFuzzLite's build step: the same build as OSS-Fuzz.
exec "$SRC/circ/scripts/oss-fuzz/build.sh"
