#!/bin/bash
# The cluster launch, tested for real: brings up a one-machine Slurm from
# Debian's packages (munge, slurmctld and slurmd on this host, in a scratch
# directory), submits deploy/slurm/seed.sbatch with one learner task and two
# actor tasks on a CartPole run to its target, and checks that the job
# finished there and left its outputs; then deploy/slurm/learners.sbatch with
# two learner processes on the same run. Needs root (the daemons) and
# `apt-get install slurm-wlm munge`. Run before every stop that touches
# deploy/slurm/ or the remote actors.
#
#   bash bench/slurm-launch.sh [BUILD_DIR]
# Also a CTest test (deploy/slurm_launch), skipped where Slurm is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
build=${1:-build}
[[ $build == /* ]] || build="$repo/$build"
seedrl="$build/seedrl"
[[ -x $seedrl ]] || { echo "slurm-launch: no seedrl at $seedrl (build first)" >&2; exit 2; }
# Where it cannot run, it says why and exits 77 (CTest's "skipped").
for tool in munged slurmctld slurmd sbatch sinfo runuser; do
  command -v "$tool" > /dev/null || { echo "slurm-launch: skipped: $tool missing (apt-get install slurm-wlm munge)"; exit 77; }
done
((EUID == 0)) || { echo "slurm-launch: skipped: the Slurm and munge daemons need root"; exit 77; }
id munge > /dev/null 2>&1 || { echo "slurm-launch: skipped: no munge user (apt-get install munge)"; exit 77; }

work=$(mktemp -d /tmp/seedrl-slurm.XXXXXX)
chmod 755 "$work"
host=$(hostname -s)
cpus=4  # declared (config_overrides): three tasks share this host's cores
conf="$work/slurm.conf"
cat > "$conf" << CONF
ClusterName=seedrl-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6917
SlurmdPort=6918
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
mkdir -p "$work/state" "$work/spool" "$work/munge"
export SLURM_CONF=$conf

# munge: a key of its own (in a private directory), its socket in a
# directory every user may reach, as munged insists.
mkdir -p "$work/munge-key" "$work/munge-run"
socket="$work/munge-run/munge.socket"
dd if=/dev/urandom of="$work/munge-key/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$work/munge" "$work/munge-key" "$work/munge-run"
chmod 700 "$work/munge" "$work/munge-key"
chmod 755 "$work/munge-run"
chmod 400 "$work/munge-key/munge.key"
runuser -u munge -- munged --key-file="$work/munge-key/munge.key" --socket="$socket" \
  --pid-file="$work/munge-run/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed"
cleanup() {
  scancel --quiet --full "${job:-0}" 2> /dev/null || true
  for pid in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge-run/munged.pid"; do
    [[ -f $pid ]] && kill "$(cat "$pid")" 2> /dev/null || true
  done
  sleep 1
  ((${keep:-1})) || rm -rf "$work"
}
trap cleanup EXIT
# Slurm's munge plugin finds the socket through this option.
echo "AuthInfo=socket=$socket" >> "$conf"

slurmctld -f "$conf"
slurmd -f "$conf"
for _ in $(seq 120); do
  state=$(sinfo -h -N -o %T 2> /dev/null | head -1 || true)
  [[ $state == idle* ]] && break
  sleep 1
done
[[ ${state:-} == idle* ]] || { echo "slurm-launch: the node never came up (state '${state:-}'); see $work/*.log" >&2; exit 1; }
echo "slurm-launch: slurmctld and slurmd up on $host ($work)"

logdir="$work/run"
start=$(date +%s)
out=$(cd "$work" && CONFIG="$repo/configs/cartpole.toml" SEEDRL=$seedrl LOGDIR=$logdir \
  ACTORS=16 ENVS_PER_ACTOR=8 TRAIN_ARGS="--target-return 475 --stop-at-target --max-frames 20000000 --report-every-s 0" \
  sbatch --parsable --wait --nodes=1 --ntasks=3 --ntasks-per-node=3 --time=30 "$repo/deploy/slurm/seed.sbatch") || true
job=${out%%;*}
[[ -n $job ]] || { echo "slurm-launch: sbatch refused the job (above)" >&2; exit 1; }
elapsed=$(($(date +%s) - start))
job_out="$work/seedrl-$job.out"
echo "slurm-launch: job $job finished in ${elapsed}s; its output ($job_out):"
grep -E "seed.sbatch: job|blas:|target return|done:|error|for the learner at" "$job_out" | sed 's/^/  | /' || true
echo "  | ... and $(grep -c 'remote actor .* connected' "$job_out") remote actor connections"

fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi; }
check "the job exited 0" "grep -q 'learner status 0' '$job_out'"
check "the run stopped at its target" "grep -q '\"stopped_at_target\": *true' '$logdir/summary.json'"
check "the checkpoint is there" "[[ -s $logdir/checkpoint.pt ]]"
check "metrics were written" "[[ -s $logdir/metrics.csv ]]"
check "remote actors connected" "grep -qi 'remote actor' '$job_out'"

# A learner that fails (a bad flag) ends the job at once with its status and
# its one-line error; the actors, which would retry for a minute, are stopped.
bad="$work/bad"
start=$(date +%s)
out=$(cd "$work" && CONFIG="$repo/configs/cartpole.toml" ENV_NAME=cartpole SEEDRL=$seedrl LOGDIR=$bad \
  TRAIN_ARGS="--batch-size 0" sbatch --parsable --wait --nodes=1 --ntasks=3 --ntasks-per-node=3 --time=5 \
  "$repo/deploy/slurm/seed.sbatch") || true
job=${out%%;*}
elapsed=$(($(date +%s) - start))
echo "slurm-launch: job $job (learner given --batch-size 0) ended in ${elapsed}s"
check "a failed learner fails the job" "grep -q 'learner exited with status [1-9]' '$work/seedrl-$job.out'"
check "its error names the flag" "grep -q -- '--batch-size' '$work/seedrl-$job.out'"
check "the script stopped the actors rather than wait out their retries" "grep -q 'stopping the actors' '$work/seedrl-$job.out'"
# Two learner processes (deploy/slurm/learners.sbatch), one per task, as one
# CartPole run to its target: rank 0 writes the run's files.
multi="$work/learners"
start=$(date +%s)
out=$(cd "$work" && CONFIG="$repo/configs/cartpole.toml" SEEDRL=$seedrl LOGDIR=$multi \
  TRAIN_ARGS="--actors 4 --envs-per-actor 16 --target-return 475 --stop-at-target --max-frames 20000000 --report-every-s 0" \
  sbatch --parsable --wait --nodes=1 --ntasks=2 --ntasks-per-node=2 --time=30 "$repo/deploy/slurm/learners.sbatch") || true
job=${out%%;*}
elapsed=$(($(date +%s) - start))
job_out="$work/seedrl-$job.out"
echo "slurm-launch: job $job (two learner processes) finished in ${elapsed}s; its output ($job_out):"
grep -E "learners.sbatch: job|learner process|learner ranks|target return|done:|error" "$job_out" | sed 's/^/  | /' || true
check "the learners' job exited 0" "grep -q 'done (status 0)' '$job_out'"
check "both ranks stopped together, weights identical" "[[ \$(grep -c 'weights identical on all 2 ranks' '$job_out') == 2 ]]"
check "rank 0 stopped the run at its target" "grep -q '\"stopped_at_target\": *true' '$multi/summary.json'"
check "rank 0 wrote the checkpoint, rank 1 none" "[[ -s $multi/checkpoint.pt && ! -e $multi/rank-1/checkpoint.pt ]]"

((fail == 0)) || echo "slurm-launch: logs kept in $work"
keep=$fail
exit $fail
