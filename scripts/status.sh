#!/usr/bin/env bash
# Reports the daemons of the run directory (pid, alive or not) and, when the supervisor runs, the tree.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

run_dir="$(containment_run_dir)"
export CONTAINMENT_RUN_DIR="$run_dir"
shopt -s nullglob
files=("$run_dir"/supervisor.pid "$run_dir"/host-*.pid)
if [ ${#files[@]} -eq 0 ] || [ ! -e "${files[0]}" -a ${#files[@]} -eq 1 ]; then
    echo "status: nothing runs in $run_dir"
    exit 3
fi
for file in "${files[@]}"; do
    [ -e "$file" ] || continue
    name="$(basename "$file" .pid)"
    if pid_alive "$file"; then echo "$name  pid $(cat "$file")  running"; else echo "$name  pid $(cat "$file")  NOT RUNNING (stale pid file)"; fi
done
if pid_alive "$run_dir/supervisor.pid"; then
    echo
    "$(containment_bin)" tree
fi
