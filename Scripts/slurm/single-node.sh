#!/usr/bin/env bash
# A throwaway single-node Slurm cluster for tests, with every file under STATE_DIR:
#
#   Scripts/slurm/single-node.sh start STATE_DIR   # writes STATE_DIR/slurm.conf, starts munged,
#                                                  # slurmctld and slurmd; waits for the node to be idle
#   Scripts/slurm/single-node.sh stop STATE_DIR    # cancels the cluster's jobs, stops the daemons
#
# Nothing under /etc is read or changed: the daemons and the client commands (sbatch, squeue,
# scancel, sinfo) find the cluster through SLURM_CONF=STATE_DIR/slurm.conf, and munged runs with its
# own key and socket in STATE_DIR/munge (slurm.conf points at it with AuthInfo). The ports are
# free ones picked at start, so the cluster does not collide with a real one on the machine.
# Needs Debian's slurm-wlm and munge (Scripts/install-deps.sh) and root (SlurmUser=root).
# On failure `start` prints the daemons' logs and exits 1.
set -euo pipefail

usage() { echo "usage: $0 start|stop STATE_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
mkdir -p "$2"
state=$(cd "$2" && pwd)
conf=$state/slurm.conf
export SLURM_CONF=$conf

log_tail() {
  for f in "$state"/munge/munged.log "$state"/*.stdio "$state"/slurmctld.log "$state"/slurmd.log; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 40 "$f"; }
  done
  return 0
}

fail() { echo "single-node slurm: $*" >&2; log_tail >&2; exit 1; }

# Stops the daemons whose pid files are given: TERM to all at once, KILL to those left after 10 s.
stop_daemons() {
  local pids=() file pid
  for file in "$@"; do
    [ -f "$file" ] || continue
    pid=$(cat "$file" 2>/dev/null || true)
    rm -f "$file"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; pids+=("$pid"); fi
  done
  for _ in $(seq 100); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive -eq 0 ] && return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}

# Runs daemon "$@" (which forks into the background) with its standard streams in file $1 and
# without the descriptors this script inherited: a caller that learns of this script's end
# through an inherited descriptor (Foundation's Process on Linux does, through a socket) or reads
# its output to the end would otherwise wait for the daemons too.
start_daemon() {
  local stdio=$1
  shift
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
    done
    exec "$@"
  ) </dev/null >"$stdio" 2>&1
}

# A TCP port nothing listens on.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  for tool in munged mungekey slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin
    command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install slurm-wlm munge)"
  done
  [ "$(id -u)" -eq 0 ] || fail "must run as root (the cluster's SlurmUser is root)"
  if [ -f "$state/slurmctld.pid" ] || [ -f "$state/slurmd.pid" ]; then stop; fi

  local host memory cpus ctld_port d_port
  host=$(hostname -s)
  cpus=$(nproc)
  # RealMemory a little below the machine's, or slurmd would drain the node for too little memory.
  memory=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  ctld_port=$(free_port)
  d_port=$(free_port)
  while [ "$d_port" = "$ctld_port" ]; do d_port=$(free_port); done

  mkdir -p "$state/munge" "$state/ctld" "$state/spool"
  chmod 700 "$state/munge"
  rm -f "$state"/*.log "$state"/*.stdio "$state/munge/munged.log"

  # munged: a private key, socket, pid and seed file.
  if [ ! -s "$state/munge/munge.key" ]; then
    mungekey --create --keyfile="$state/munge/munge.key" --force >/dev/null 2>&1 \
      || dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  fi
  chmod 400 "$state/munge/munge.key"
  start_daemon "$state/munged.stdio" munged --force --socket="$state/munge/munge.socket" --key-file="$state/munge/munge.key" \
    --log-file="$state/munge/munged.log" --pid-file="$state/munge/munged.pid" \
    --seed-file="$state/munge/munged.seed" || fail "munged did not start"

  cat >"$conf" <<CONF
# Written by Scripts/slurm/single-node.sh: a one-node test cluster.
ClusterName=photogrammetry-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=10
MinJobAge=300
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

  start_daemon "$state/slurmctld.stdio" slurmctld || fail "slurmctld did not start"
  start_daemon "$state/slurmd.stdio" slurmd || fail "slurmd did not start"

  local status=""
  for _ in $(seq 300); do
    status=$(sinfo --noheader --nodes="$host" --format=%T 2>/dev/null || true)
    case "$status" in
      idle) echo "single-node slurm: $host idle (SLURM_CONF=$conf)"; return 0 ;;
    esac
    sleep 0.1
  done
  fail "the node is not idle after 30 s (sinfo: ${status:-no answer})"
}

stop() {
  if [ -f "$conf" ] && [ -f "$state/slurmctld.pid" ]; then
    # Jobs still running would outlive slurmd in their slurmstepd: cancel them and wait.
    scancel --full --quiet "--user=$(id -un)" 2>/dev/null || true
    for _ in $(seq 100); do
      [ -z "$(squeue --noheader 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  stop_daemons "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munge/munged.pid"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
