#!/bin/bash
# Submits one copy as three steps: plan -> a job array of workers (afterok) -> finish (afterany,
# so it runs and reports even if a worker was cancelled).
# Usage: submit.sh PLAN_DIR WORKERS [cp options] SOURCE... DEST
#   e.g. submit.sh /lustre/plans/move1 16 -a /lustre/old/project /gpfs/new/
# Prints the three job ids. Afterwards: cpx --status=PLAN_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plan=$1
workers=$2
shift 2
plan_job=$(sbatch --parsable "$here/plan.sbatch" "$plan" "$@")
work_job=$(sbatch --parsable --dependency=afterok:"$plan_job" --array=1-"$workers" "$here/work.sbatch" "$plan")
finish_job=$(sbatch --parsable --dependency=afterany:"$work_job" "$here/finish.sbatch" "$plan")
echo "$plan_job $work_job $finish_job"
