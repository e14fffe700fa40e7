#!/usr/bin/env bash
# What two GPUs of one host share (issue 29, docs/performance.md): half a class graded on GPU 0
# (`batch --shard 1/2`) alone, then beside each kind of driver work repeated on GPU 1 by three
# processes of tests/nvidia/host_probe (round trips, allocations, pinned copies, contexts with a
# build, whole process lives), then beside the other half of the class on GPU 1, then alone again.
# A kind of work that slows GPU 0's half as much as the other half does is what the two GPUs share.
# Not a test: figures to read. Needs two NVIDIA GPUs and a build with tests/nvidia (host_probe).
#
#   bash scripts/bench_gpu_sharing.sh [--clgrade PATH] [--probe PATH] [--out DIR] SUBMISSIONS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
clgrade=$here/../build/clgrade probe=$here/../build/tests/nvidia/host_probe out=
while [ $# -gt 1 ]; do
  case $1 in
    --clgrade) clgrade=$2; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -eq 1 ] && [ -d "$1" ] || { grep -m1 '^#   bash' "$0" >&2; exit 2; }
[ -x "$probe" ] || { echo "no host_probe at $probe (build tests/nvidia, or give --probe)" >&2; exit 2; }
gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)
[ "${gpus:-0}" -ge 2 ] || { echo "needs two NVIDIA GPUs; nvidia-smi lists ${gpus:-0}" >&2; exit 2; }
if [ -z "$out" ]; then out=$(mktemp -d /tmp/clgrade-sharing.XXXXXX); else out=$(realpath -m -- "$out"); fi
if [ "$(id -u)" = 0 ]; then cache=/var/cache/clgrade; else cache=${XDG_CACHE_HOME:-$HOME/.cache}/clgrade; fi
rm -rf "$out/class" "$out/figures"
mkdir -p "$out/class"
cp -r "$1"/*/ "$out/class/"
# As clgrade runs its own processes (cl/driver_settings.h): the probes' contexts are made alike.
export CUDA_DEVICE_MAX_CONNECTIONS=1
first=$(find "$out/class" -mindepth 1 -maxdepth 1 | sort | head -1)
"$clgrade" grade "$first" --device gpu --seed 42 --out "$out/store-fill" > /dev/null 2>&1 || true
echo "clgrade: $clgrade; $(find "$out/class" -mindepth 1 -maxdepth 1 | wc -l) submissions, half on GPU 0; results under $out"

half() {  # NAME: GPU 0's half of the class, cold compiler caches, timed
  rm -rf "$cache/pocl" "${out:?}/$1"
  local t0 t1
  t0=$(date +%s.%N)
  CUDA_VISIBLE_DEVICES=0 "$clgrade" batch "$out/class" --out "$out/$1" --device gpu --seed 42 --shard 1/2 \
    > "$out/$1.log" 2>&1 || echo "$1: batch exited $?"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v n="$1" 'BEGIN { printf "%-34s %.1f s\n", n, b - a }' | tee -a "$out/figures"
}

beside() {  # MODE MB: three processes repeating it on GPU 1 while GPU 0's half is graded
  local mode=$1 mb=$2 pids=()
  rm -f "$out/stop"
  for _ in 1 2 3; do
    if [[ $mode == life ]]; then  # one life a process: started again until told to stop
      (while [ ! -f "$out/stop" ]; do CUDA_VISIBLE_DEVICES=1 "$probe" life 0 "$mb" > /dev/null 2>&1; done) &
    else
      CUDA_VISIBLE_DEVICES=1 "$probe" "$mode" 3600 "$mb" > /dev/null 2>&1 &
    fi
    pids+=($!)
  done
  half "beside $mode ($mb MB) on GPU 1"
  touch "$out/stop"
  kill "${pids[@]}" 2> /dev/null || true
  wait "${pids[@]}" 2> /dev/null || true
}

half alone
beside step 1
beside alloc 64
beside pinned-write 256
beside ctx 1
beside life 64
rm -rf "$cache/pocl" "$out/other"
CUDA_VISIBLE_DEVICES=1 "$clgrade" batch "$out/class" --out "$out/other" --device gpu --seed 42 --shard 2/2 \
  > "$out/other.log" 2>&1 &
other=$!
half "beside the other half on GPU 1"
wait "$other" || true
half "alone again"
