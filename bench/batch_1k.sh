#!/bin/bash
# 1,000 runs of a batch on this machine (issue 21's figure): 50 workspaces of 20 small files,
# 20 runs each, one model call (the offline script provider) and one sandboxed command per run,
# through `baton batch run --engine local`. Prints the wall time, runs per second, the mean
# per-run time against the plan's own time, and the disk each run keeps.
# Usage: bench/batch_1k.sh [path/to/baton] [PARALLEL] [JOBS]
set -euo pipefail
baton=${1:-target/release/baton}
parallel=${2:-2}
jobs=${3:-2}
baton=$(cd "$(dirname "$baton")" && pwd)/$(basename "$baton")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
for w in $(seq 1 50); do
    mkdir -p "ws/w$w"
    for f in $(seq 1 20); do echo "file $f of $w" > "ws/w$w/f$f.txt"; done
done
cat > plan.py <<'PLAN'
from baton import bash, llm

def main(n=0):
    note = llm(f"note for run {n}")
    r = bash(f"echo '{note}' > note.txt && ls | wc -l")
    return {"passed": r.ok, "files": int(r.stdout)}
PLAN
echo '{"rules": [], "default": "ok"}' > script.json
for w in $(seq 1 50); do
    for n in $(seq 0 19); do
        printf '{"id": "w%d-%d", "plan": "plan.py", "workspace": "ws/w%d", "inputs": {"n": %d}, "grants": ["bash", "llm"], "llm": "script:script.json", "tags": {"ws": "w%d"}}\n' \
            "$w" "$n" "$w" "$n" "$w"
    done
done > manifest.jsonl
start=$(date +%s.%N)
"$baton" batch run manifest.jsonl --out out --parallel "$parallel" --jobs "$jobs" 2> batch.log
end=$(date +%s.%N)
python3 - "$start" "$end" <<'PY'
import glob, json, statistics, subprocess, sys
start, end = float(sys.argv[1]), float(sys.argv[2])
results = [json.load(open(p)) for p in glob.glob("out/results/*.json")]
per_run = statistics.mean(r["seconds"] for r in results)
own = statistics.mean(json.load(open(r["run_dir"] + "/figures.json"))["seconds"] for r in results)
disk = int(subprocess.check_output(["du", "-sk", "out/runs"]).split()[0])
wall = end - start
print(f"{len(results)} runs in {wall:.1f} s: {len(results) / wall:.1f} runs/s; "
      f"per run {per_run * 1000:.0f} ms, of which the plan's own {own * 1000:.0f} ms "
      f"(overhead {(per_run - own) * 1000:.0f} ms); disk {disk / len(results):.0f} KiB per run")
PY
