#!/usr/bin/env bash
# The batch benchmark of issue 29 (docs/performance.md): one class graded on one GPU and on every GPU
# of the machine, each from cold compiler caches, with the same seed; prints the wall times, the
# submissions a minute, the two against one, the CPU seconds by kind of process, how busy each GPU
# was (scripts/gpu_busy.py, from nvidia-smi dmon), the batch's timeline in brief
# (scripts/trace_batch.py) and whether any verdict differs between the runs. The batches are traced,
# which makes each a few seconds slower than an untraced one: compare its figures with each other.
#
#   bash scripts/bench_batch.sh [--clgrade PATH] [--copies N] [--out DIR] [--device D] SUBMISSIONS_DIR
#
# --copies N grades each submission N times (default 1): copies 2.. get a comment appended to every
# kernel file, so that no compiler cache is shared between them. On a machine of one GPU, half the
# class is graded too, for a projection of two (said as such). The store of inputs is filled first
# (a grade of the first submission), as it is on any machine after its first batch. Clears clgrade's
# compiler caches (<cache home>/clgrade/pocl) before each batch. Not a test: a figure to read.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
clgrade=$here/../build/clgrade copies=1 out= device=gpu
while [ $# -gt 1 ]; do
  case $1 in
    --clgrade) clgrade=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;  # e.g. cpu: one run on PoCL, to try the script
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -eq 1 ] && [ -d "$1" ] || { grep -m1 '^#   bash' "$0" >&2; exit 2; }
# CLGRADE_TRACE takes an absolute path only; a folder of earlier figures would mix with these.
if [ -z "$out" ]; then out=$(mktemp -d /tmp/clgrade-bench.XXXXXX); else out=$(realpath -m -- "$out"); fi
rm -rf "$out/class" "$out/figures" "$out/one" "$out/all" "$out/half" "$out/class-half" "$out"/*.trace.json "$out"/*.cpu
if [ "$(id -u)" = 0 ]; then cache=/var/cache/clgrade; else cache=${XDG_CACHE_HOME:-$HOME/.cache}/clgrade; fi
class=$out/class
mkdir -p "$class"
for s in "$1"/*/; do
  name=$(basename "$s")
  cp -r "$s" "$class/$name"
  for ((i = 2; i <= copies; i++)); do
    cp -r "$s" "$class/${name}_copy$i"
    find "$class/${name}_copy$i" -name '*.cl' -exec sh -c 'printf "\n// copy %s\n" "$1" >> "$2"' _ "$i" {} \;
  done
done
count=$(find "$class" -mindepth 1 -maxdepth 1 | wc -l)
gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)
echo "clgrade: $clgrade; $count submissions; $gpus NVIDIA GPU(s); $(nproc) cores; results under $out"
first=$(find "$class" -mindepth 1 -maxdepth 1 | sort | head -1)
"$clgrade" grade "$first" --device "$device" --seed 42 --out "$out/store-fill" > /dev/null 2>&1 || true

run() {  # NAME, then batch options
  local name=$1
  shift
  rm -rf "$cache/pocl" "$out/$name"
  python3 "$here/cpu_by_process.py" "$out/$name.cpu" &
  local sampler=$! dmon=
  # How busy the GPUs were: paced by the GPU's own work, or by the host feeding it.
  if [ "$device" = gpu ] && command -v nvidia-smi > /dev/null; then
    nvidia-smi dmon -s u -d 1 > "$out/$name.dmon" 2>&1 &
    dmon=$!
  fi
  local t0 t1
  t0=$(date +%s.%N)
  CLGRADE_TRACE=$out/$name.trace.json "$clgrade" batch "$class" --out "$out/$name" --device "$device" --seed 42 "$@" \
    > "$out/$name.log" 2>&1 || echo "$name: batch exited $?"
  t1=$(date +%s.%N)
  kill "$sampler" $dmon 2> /dev/null || true
  wait "$sampler" $dmon || true
  awk -v a="$t0" -v b="$t1" -v n="$count" -v name="$name" \
    'BEGIN { printf "%s: %.1f s, %.1f submissions a minute\n", name, b - a, n * 60 / (b - a) }' | tee -a "$out/figures"
  grep -m1 "submissions in" "$out/$name.log" || true
  if [ -f "$out/$name.cpu" ]; then head -4 "$out/$name.cpu"; fi
  if [ -n "$dmon" ]; then python3 "$here/gpu_busy.py" "$out/$name.dmon" | sed 's/^/  /' || true; fi
  if [ -f "$out/$name.trace.json" ]; then python3 "$here/trace_batch.py" "$out/$name.trace.json" | sed 's/^/  /' || true; fi
}

if [ "$device" = gpu ]; then run one --gpus 0; else run one; fi
if [ "$device" = gpu ] && [ "${gpus:-0}" -gt 1 ]; then run all; fi
# One GPU only: every other submission on it, the share of one GPU of a node of two with as many
# cores each. One GPU's time over this one is what two GPUs would reach if they shared nothing of
# the host: a projection, printed as such, never the two-GPU figure.
if [ "$device" = gpu ] && [ "${gpus:-0}" -eq 1 ]; then
  full=$class
  class=$out/class-half
  rm -rf "$class" && mkdir -p "$class"
  find "$full" -mindepth 1 -maxdepth 1 | sort | awk 'NR % 2 == 1' | while read -r s; do cp -r "$s" "$class/"; done
  count=$(find "$class" -mindepth 1 -maxdepth 1 | wc -l)
  run half --gpus 0
  class=$full
fi
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def verdicts(name):
    try:
        j = json.load(open(f"{out}/{name}/class.json"))
    except OSError:
        return None
    return {s["submission"]: [(t["id"], c["id"], c["points"], c["status"]) for t in s.get("tasks", []) for c in t["criteria"]]
            for s in j["submissions"]}
times = dict(line.split(": ")[0:2] for line in open(f"{out}/figures"))
if "half" in times and "one" in times:
    a, h = float(times["one"].split()[0]), float(times["half"].split()[0])
    print(f"projection, not a measurement: two GPUs sharing nothing of the host would be {a / h:.2f}x "
          "(the class on one GPU over half of it on one GPU)")
one, every = verdicts("one"), verdicts("all")
if one is not None and every is not None and "all" in times:
    a, b = float(times["one"].split()[0]), float(times["all"].split()[0])
    print(f"every GPU against one: {a / b:.2f}x")
    differing = [n for n in sorted(set(one) | set(every)) if one.get(n) != every.get(n)]
    print(f"verdicts differing between one GPU and every GPU: {len(differing)} of {len(one)}", *differing)
PY
