#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/slurm/cluster.sh - a one-node Slurm for the tests, from Debian's
# packages (slurmctld, slurmd, slurm-client, munge), all of it in one
# folder: its own munge key and socket, its own ports, no cgroups, no GPU.
#
#   sh tests/slurm/cluster.sh start DIR   write DIR/slurm.conf, start munged,
#                                         slurmctld and slurmd, wait until
#                                         the node is idle
#   sh tests/slurm/cluster.sh stop DIR    stop the three (by their pid files)
#
# Clients then need SLURM_CONF=DIR/slurm.conf. Needs root (slurmd runs
# jobs as their users). Ports: 20000 + (this shell's pid mod 20000), and
# the next one, so that two test runs do not meet.

set -u
[ $# -eq 2 ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
what=$1
mkdir -p "$2" && dir=$(cd "$2" && pwd) || exit 2

stop() {
	for d in slurmd slurmctld munged; do
		[ -f "$dir/$d.pid" ] || continue
		pid=$(cat "$dir/$d.pid")
		kill "$pid" 2> /dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$pid" 2> /dev/null || break
			sleep 0.5
		done
		kill -9 "$pid" 2> /dev/null
		rm -f "$dir/$d.pid"
	done
}

if [ "$what" = stop ]; then
	stop
	exit 0
fi

host=$(hostname -s)
port=$((20000 + $$ % 20000))
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
mkdir -p "$dir/state" "$dir/spool"
cat > "$dir/slurm.conf" << EOF
# A one-node test cluster (tests/slurm/cluster.sh).
ClusterName=wbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

head -c 1024 /dev/urandom > "$dir/munge.key"
chmod 400 "$dir/munge.key"
munged --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
	--pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
	--seed-file="$dir/munge.seed" --force || { echo "munged did not start"; exit 1; }
slurmctld -f "$dir/slurm.conf" || { echo "slurmctld did not start"; stop; exit 1; }
slurmd -f "$dir/slurm.conf" || { echo "slurmd did not start"; stop; exit 1; }

for _ in $(seq 60); do
	state=$(SLURM_CONF="$dir/slurm.conf" sinfo -h -o %t 2> /dev/null)
	case $state in idle*) echo "slurm: node $host idle (ports $port, $((port + 1)))"; exit 0 ;; esac
	sleep 0.5
done
echo "slurm: the node did not become idle (state: ${state:-none})"
tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" 2> /dev/null
stop
exit 1
