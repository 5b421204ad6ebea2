#!/bin/bash
# Runs chimera tb plan on a real one-node Slurm cluster made on this
# machine from Debian's packages (slurmctld, slurmd, munge), then checks
# every table it built against chimera tb generate alone, byte for byte,
# and with tb verify (VERIFY below). Needs root (it starts the daemons and, with
# INSTALL=1, installs the packages). Tables: every four-piece chess table
# and the five-piece ones named (default three pawnless ones, about 4.5 GB
# of memory and a few minutes each on two cores).
#
#   scripts/slurm-test.sh [WORKDIR]
#   FIVE="KQRvKQ KRRvKR KQBvKQ" CHIMERA=./chimera scripts/slurm-test.sh /tmp/slurm-test
set -euo pipefail
work=${1:-/tmp/chimera-slurm-test}
five=${FIVE-KQRvKQ KRRvKR KQBvKQ}
here=$(cd "$(dirname "$0")/.." && pwd)
chimera=${CHIMERA:-$work/chimera}

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  if [ "${INSTALL:-0}" = 1 ]; then
    apt-get update -qq && apt-get install -y -qq slurmctld slurmd munge
  else
    echo "slurm-test: slurmctld, slurmd and munge are not installed (INSTALL=1 installs them)" >&2
    exit 2
  fi
fi

rm -rf "$work" && mkdir -p "$work"/{state,spool,log,tables,alone,scripts}
if [ -z "${CHIMERA:-}" ]; then
  (cd "$here" && go build -o "$chimera" ./cmd/chimera)
fi

# munge: the key Debian's package made, the daemon as its user.
if ! pgrep -x munged >/dev/null; then
  [ -f /etc/munge/munge.key ] || mungekey --create
  mkdir -p /run/munge && chown munge:munge /run/munge
  su -s /bin/sh munge -c /usr/sbin/munged
fi

node=$(hostname -s)
cpus=$(nproc)
memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 2048))
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=chimera-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
cleanup() {
  [ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null || true
  [ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null || true
}
trap cleanup EXIT
slurmctld -i
slurmd
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo

echo "== the plan"
"$chimera" tb plan --pieces 4 $five --dir "$work/tables" > "$work/plan.txt"
head -1 "$work/plan.txt"
"$chimera" tb plan --pieces 4 $five --dir "$work/tables" --slurm "$work/scripts" --chimera "$chimera" --cpus "$cpus"
start=$(date +%s)
"$work/scripts/submit.sh"
last=$(cat "$work/scripts/last-job")
while squeue -h | grep -q .; do sleep 2; done
end=$(date +%s)
sacct >/dev/null 2>&1 || true
if [ -s "$work/scripts/failed.txt" ]; then
  echo "slurm-test: tables failed:" >&2
  cat "$work/scripts/failed.txt" >&2
  exit 1
fi
built=$(ls "$work/tables"/*.ctb | wc -l)
echo "== $built tables built by Slurm in $((end - start)) s (last job $last)"

echo "== the same tables by tb generate alone"
start=$(date +%s)
for m in $(cd "$work/tables" && ls *.ctb | sed 's/^chess-//; s/\.ctb$//'); do
  "$chimera" tb generate "$m" --dir "$work/alone" >/dev/null 2>&1
done
end=$(date +%s)
echo "== built alone in $((end - start)) s"
different=0
for f in "$work/tables"/*.ctb; do
  if ! cmp -s "$f" "$work/alone/$(basename "$f")"; then
    echo "slurm-test: $(basename "$f") differs" >&2
    different=1
  fi
done
[ "$different" = 0 ] && echo "== all $built tables byte-identical"
# tb verify: every table of up to four pieces (VERIFY=all adds the
# five-piece ones, a quarter of an hour each; VERIFY=none skips it).
if [ "${VERIFY:-four}" != none ]; then
  echo "== tb verify"
  for m in $(cd "$work/tables" && ls *.ctb | sed 's/^chess-//; s/\.ctb$//'); do
    if [ "${VERIFY:-four}" = all ] || [ "${#m}" -le 5 ]; then
      "$chimera" tb verify "$m" --dir "$work/tables" 2>&1 | tail -1
    fi
  done
fi
exit $different
