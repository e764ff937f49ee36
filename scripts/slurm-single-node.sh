#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the workflow's Slurm path
# (workflow/README in the main README: "The workflow"; tests/workflow/slurm_test.sh):
# munged, slurmctld and slurmd on localhost, with every file they write
# (slurm.conf, the munge key, sockets, logs, spool and state) in one state
# folder instead of /etc, /run and /var.
#
#   scripts/slurm-single-node.sh start    write the configuration, start the daemons,
#                                         wait until the node is idle (sinfo)
#   scripts/slurm-single-node.sh status   the daemons' pids and sinfo
#   scripts/slurm-single-node.sh stop     stop the daemons (the state folder stays)
#
# Client commands (sbatch, sinfo, squeue, scontrol) and Snakemake find the
# cluster through SLURM_CONF; `start` prints the line to export.
#
# Needs: root. slurmd starts each job as the user who submitted it, which
# needs root, and munged, slurmctld and slurmd all run as root here so that
# one user owns the state folder (SlurmUser=root). Debian packages slurmd,
# slurmctld, slurm-client and munge (scripts/debian-packages.txt).
#
# Environment:
#   SLURM_STATE_DIR   the state folder (default: .slurm in the repository)
#   SLURM_CTLD_PORT   slurmctld's port (default 6817); SLURM_D_PORT slurmd's (6818)
#   SLURM_WAIT        seconds to wait for the node to become idle (default 60)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state=${SLURM_STATE_DIR:-$root/.slurm}
ctld_port=${SLURM_CTLD_PORT:-6817}
d_port=${SLURM_D_PORT:-6818}
wait_seconds=${SLURM_WAIT:-60}
conf=$state/slurm.conf
munge_socket=$state/munge/munge.socket
export SLURM_CONF=$conf

die() { echo "slurm-single-node: $*" >&2; exit 1; }

need_root() {
  [[ $(id -u) == 0 ]] || die "needs root: slurmd starts jobs as their submitting user (run it with sudo)"
  local program
  for program in munged mungekey slurmctld slurmd sinfo scontrol; do
    command -v "$program" > /dev/null ||
      die "$program is missing: install the Debian packages munge, slurmctld, slurmd and slurm-client (scripts/bootstrap.sh does)"
  done
}

# Sockets live in the state folder; a Unix socket's path has at most 107 bytes.
check_socket_path() {
  ((${#munge_socket} <= 100)) || die "the munge socket path $munge_socket is too long for a Unix socket: set SLURM_STATE_DIR to a shorter folder"
}

# The node line from slurmd's own view of the hardware (CPUs, sockets, cores,
# threads, memory), so that slurmd never finds less than slurm.conf promises
# (which would drain the node).
node_line() {
  local detected
  detected=$(slurmd -C | head -n 1) || die "slurmd -C could not describe this machine"
  [[ $detected == NodeName=* ]] || die "unexpected output of slurmd -C: $detected"
  # slurmd -C names the node by hostname; address it by loopback so that no
  # name resolution is needed.
  echo "${detected} NodeAddr=127.0.0.1 State=UNKNOWN"
}

write_config() {
  mkdir -p "$state"/{munge,ctld,spool,log}
  # Clients of any user reach munged's socket here; the key stays root's (600).
  chmod 755 "$state/munge"
  if [[ ! -s $state/munge/munge.key ]]; then
    mungekey --create --keyfile="$state/munge/munge.key" > /dev/null
  fi
  chmod 600 "$state/munge/munge.key"
  local host node
  host=$(hostname -s)
  node=$(node_line)
  cat > "$conf" << EOF
# Written by scripts/slurm-single-node.sh: one node (this host), one partition.
ClusterName=contactref
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${ctld_port}
SlurmdPort=${d_port}
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${munge_socket}
StateSaveLocation=${state}/ctld
SlurmdSpoolDir=${state}/spool
SlurmctldPidFile=${state}/slurmctld.pid
SlurmdPidFile=${state}/slurmd.pid
SlurmctldLogFile=${state}/log/slurmctld.log
SlurmdLogFile=${state}/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups: containers and CI machines rarely delegate them.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
# Snakemake's jobs are single tasks: no MPI plugin (pmix is not installed).
MpiDefault=none
# No slurmdbd: sacct then has nothing to read, and Snakemake 7.21's --slurm
# falls back to scontrol, which knows a job for MinJobAge seconds after it
# ends. The completed jobs are also written to one text file (jobcomp).
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=${state}/log/jobcomp.log
MinJobAge=600
# Jobs share the node by CPU (cons_tres), so that N one-CPU jobs run at once.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
${node}
PartitionName=local Nodes=${host} Default=YES MaxTime=INFINITE State=UP
EOF
}

pid_alive() { [[ -s $1 ]] && kill -0 "$(cat "$1")" 2> /dev/null; }

start() {
  need_root
  check_socket_path
  write_config
  if ! pid_alive "$state/munged.pid"; then
    # --force: munged refuses to start when a folder above its files is
    # writable by others without the sticky bit (a checkout in a shared
    # folder); this throwaway cluster does not need that protection.
    munged --force --socket="$munge_socket" --key-file="$state/munge/munge.key" \
      --pid-file="$state/munged.pid" --log-file="$state/log/munged.log" \
      --seed-file="$state/munge/munged.seed" ||
      die "munged did not start (see $state/log/munged.log)"
  fi
  pid_alive "$state/slurmctld.pid" || slurmctld -f "$conf" || die "slurmctld did not start (see $state/log/slurmctld.log)"
  pid_alive "$state/slurmd.pid" || slurmd -f "$conf" || die "slurmd did not start (see $state/log/slurmd.log)"
  local waited=0 node_state
  while :; do
    node_state=$(sinfo --noheader --format=%T 2> /dev/null | head -n 1 || true)
    [[ $node_state == idle ]] && break
    ((waited < wait_seconds)) ||
      die "the node is not idle after ${wait_seconds} s (sinfo says '${node_state}'; see $state/log/)"
    sleep 1
    waited=$((waited + 1))
  done
  echo "slurm-single-node: node $(hostname -s) idle after ${waited} s; export SLURM_CONF=$conf"
}

stop_daemon() {
  local name=$1 pidfile=$2 pid tries=0
  pid_alive "$pidfile" || return 0
  pid=$(cat "$pidfile")
  kill "$pid"
  while kill -0 "$pid" 2> /dev/null; do
    ((tries < 50)) || die "$name (pid $pid) did not stop within 10 s"
    sleep 0.2
    tries=$((tries + 1))
  done
}

stop() {
  stop_daemon slurmd "$state/slurmd.pid"
  stop_daemon slurmctld "$state/slurmctld.pid"
  stop_daemon munged "$state/munged.pid"
  echo "slurm-single-node: stopped (state in $state)"
}

status() {
  local name running=0
  for name in munged slurmctld slurmd; do
    if pid_alive "$state/$name.pid"; then
      echo "$name: running (pid $(cat "$state/$name.pid"))"
      running=$((running + 1))
    else
      echo "$name: not running"
    fi
  done
  ((running == 3)) || return 1
  echo "SLURM_CONF=$conf"
  sinfo
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: scripts/slurm-single-node.sh start|stop|status" >&2; exit 2 ;;
esac
