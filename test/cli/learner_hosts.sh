#!/bin/bash
# Learner processes on two hosts. Two network namespaces joined by a virtual
# Ethernet link stand for two machines: each has its own interfaces, its own
# loopback, its own host name and /etc/hosts, set as Debian sets them (a
# host's own name resolves to 127.0.1.1, which no other host can reach) plus
# the other host's name, as a cluster's DNS would give it. Rank 0 runs on
# host-a, rank 1 on host-b, both with --master-addr host-a (as Slurm's
# first node name): on host-a that name leads to loopback.
#  1. The group learns CartPole to 475 with identical weights on both ranks,
#     Gloo listening on each host's own address towards A.
#  2. The link is cut mid-run: both ranks end within the collective timeout
#     with the line that says a rank was lost, and the last checkpoint stays.
#  3. The link back up, --resume restarts the group from that checkpoint,
#     host B's Gloo on the interface GLOO_SOCKET_IFNAME names.
#  4. Host B names an interface it lacks: rank 0 ends with rank 1's reason.
# Skipped (77) where namespaces cannot be made (not root, no `ip`, a
# container without CAP_NET_ADMIN). Deadlines here only catch hangs.
#   test/cli/learner_hosts.sh BUILD_DIR
set -euo pipefail
bin=$1/seedrl
src=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" != 0 ] || ! command -v ip > /dev/null || ! command -v unshare > /dev/null; then
  echo "skipped: needs root, ip and unshare"
  exit 77
fi
tag=sr$(($$ % 100000))
a=${tag}a b=${tag}b
if ! ip netns add "$a" 2> /dev/null; then
  echo "skipped: cannot make network namespaces here"
  exit 77
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2> /dev/null || true; done
  ip netns del "$a" 2> /dev/null || true
  ip netns del "$b" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in "$work"/*.log; do
    echo "--- $f"
    grep -v '^frames' "$f" | tail -n 15 || true
  done
  exit 1
}

ip netns add "$b"
ip link add "${tag}x" type veth peer name "${tag}y"
ip link set "${tag}x" netns "$a"
ip link set "${tag}y" netns "$b"
net=10.$((200 + $$ % 50)).$((($$ / 50) % 250))
ip -n "$a" addr add "$net.1/24" dev "${tag}x"
ip -n "$b" addr add "$net.2/24" dev "${tag}y"
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "${tag}x" up
ip -n "$b" link set "${tag}y" up
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/token"

# Extra environment for one host's seedrl (NAME=VALUE words), by host name.
declare -A host_env=()
# on_host NS NAME LOG ARGS...: seedrl ARGS on that host, in the background (pid in $last).
on_host() {
  local ns=$1 name=$2 log=$3 other
  shift 3
  if [ "$name" = host-a ]; then other="$net.2 host-b"; else other="$net.1 host-a"; fi
  printf '127.0.0.1 localhost\n127.0.1.1 %s\n%s\n' "$name" "$other" > "$work/hosts-$name"
  ip netns exec "$ns" unshare --uts --mount sh -c \
    'mount --bind "$1" /etc/hosts && hostname "$2" && shift 2 && exec "$@"' _ \
    "$work/hosts-$name" "$name" env ${host_env[$name]:-} "$bin" "$@" > "$log" 2>&1 &
  last=$!
  pids+=("$last")
}
# group RUN LOGNAME ARGS...: rank 0 on host A, rank 1 on host B (pids in $p0, $p1).
group() {
  local run=$1 name=$2
  shift 2
  local common=(train --config "$src/configs/cartpole.toml" --actors 4 --envs-per-actor 16 --world-size 2
    --master-addr host-a --master-port 29500 --token-file "$work/token" --logdir "$work/$run"
    --report-every-s 0 --replica-checksum-every 10 "$@")
  on_host "$a" host-a "$work/$name.rank0.log" "${common[@]}" --rank 0
  p0=$last
  on_host "$b" host-b "$work/$name.rank1.log" "${common[@]}" --rank 1
  p1=$last
}
# wait_both SECONDS: both ranks' exit statuses in $s0 and $s1, or a failure
# once SECONDS have passed.
wait_both() {
  local deadline=$((SECONDS + $1))
  while kill -0 "$p0" 2> /dev/null || kill -0 "$p1" 2> /dev/null; do
    ((SECONDS < deadline)) || fail "a rank still running after $1 s"
    sleep 0.2
  done
  s0=0 s1=0
  wait "$p0" || s0=$?
  wait "$p1" || s1=$?
}
checksum() { grep -o 'weights identical on all 2 ranks (checksum [^)]*)' "$1" | tail -n 1; }

# 1. Learning across the hosts.
group run1 learn --target-return 475 --stop-at-target --max-frames 20000000
wait_both 600
[ "$s0" = 0 ] && [ "$s1" = 0 ] || fail "learning: exit statuses $s0 and $s1"
grep -q "Gloo listens on $net.1\$" "$work/learn.rank0.log" || fail "rank 0 does not listen on host A's address"
grep -q "Gloo listens on $net.2\$" "$work/learn.rank1.log" || fail "rank 1 does not listen on host B's address"
grep -q '"stopped_at_target": *true' "$work/run1/summary.json" || fail "the run did not stop at its target"
c0=$(checksum "$work/learn.rank0.log") c1=$(checksum "$work/learn.rank1.log")
[ -n "$c0" ] && [ "$c0" = "$c1" ] || fail "checksums differ: '$c0' vs '$c1'"
echo "ok: two hosts learned CartPole to 475, $c0"

# 2. The link cut once rank 0 has written a checkpoint.
group run2 cut --max-frames 1000000000 --checkpoint-every-s 2 --collective-timeout-s 10
deadline=$((SECONDS + 300))
until [ -s "$work/run2/checkpoint.pt" ]; do
  ((SECONDS < deadline)) || fail "no checkpoint after 300 s"
  kill -0 "$p0" 2> /dev/null || fail "rank 0 ended before its first checkpoint"
  sleep 0.2
done
ip -n "$b" link set "${tag}y" down
cut_at=$SECONDS
wait_both 180
[ "$s0" = 1 ] && [ "$s1" = 1 ] || fail "cut link: exit statuses $s0 and $s1, not 1 and 1"
for r in 0 1; do
  grep -q "learner processes: lost another rank" "$work/cut.rank$r.log" || fail "rank $r does not say it lost a rank"
done
echo "ok: a cut link ended both ranks with the lost-rank line, $((SECONDS - cut_at)) s after the cut (timeout 10 s)"

# 3. The link back, the group resumes from rank 0's checkpoint; host B names
# its interface for Gloo, as GLOO_SOCKET_IFNAME does for PyTorch.
ip -n "$b" link set "${tag}y" up
host_env[host-b]=GLOO_SOCKET_IFNAME=${tag}y
group run2 resume --resume --target-return 475 --stop-at-target --max-frames 1000000000
wait_both 600
[ "$s0" = 0 ] && [ "$s1" = 0 ] || fail "resume: exit statuses $s0 and $s1"
for r in 0 1; do
  grep -q "resumed from $work/run2/checkpoint.pt" "$work/resume.rank$r.log" || fail "rank $r did not resume"
done
grep -q "Gloo listens on interface ${tag}y\$" "$work/resume.rank1.log" || fail "rank 1 does not listen on its interface"
c0=$(checksum "$work/resume.rank0.log") c1=$(checksum "$work/resume.rank1.log")
[ -n "$c0" ] && [ "$c0" = "$c1" ] || fail "resumed checksums differ: '$c0' vs '$c1'"
echo "ok: the group resumed across the hosts, $c0"

# 4. Host B names an interface it does not have: its Gloo cannot start. Rank
# 0, blocked inside Gloo's connect, ends with rank 1's reason at once rather
# than after several collective timeouts.
host_env[host-b]=GLOO_SOCKET_IFNAME=${tag}none
group run4 noiface --max-frames 1000000000 --collective-timeout-s 120
wait_both 600
[ "$s0" = 1 ] && [ "$s1" = 1 ] || fail "missing interface: exit statuses $s0 and $s1, not 1 and 1"
grep -q "rank 1 could not meet the other learner processes at host-a:29500 .*${tag}none" "$work/noiface.rank1.log" ||
  fail "rank 1 does not say why it could not join"
grep -q "rank 0 stops: rank 1 (on host-b) could not join the group: .*${tag}none" "$work/noiface.rank0.log" ||
  fail "rank 0 does not end with rank 1's reason"
echo "ok: a rank that could not join ended the other with its reason"
