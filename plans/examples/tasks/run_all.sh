#!/bin/bash
# Runs the ten example tasks offline: `baton plan` asks the script provider (planner.llm.json
# holds a planner's answers, two of them rejected by the check first and then repaired), each
# task over a fresh copy of repo/ (a task that succeeds writes its changes back to its copy,
# never to repo/ itself). Usage: plans/examples/tasks/run_all.sh [path/to/baton]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
baton=${1:-baton}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for task in "$here"/tasks/*.md; do
    name=$(basename "$task" .md)
    echo "== $name"
    cp -a "$here/repo" "$scratch/$name"
    "$baton" plan --task-file "$task" --workspace "$scratch/$name" --grant bash \
        --llm "script:$here/planner.llm.json" --run-dir "$scratch/$name.run" --quiet
done
