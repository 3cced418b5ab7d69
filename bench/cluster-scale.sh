#!/usr/bin/env bash
# bench/cluster-scale.sh [N]: issue 44's scale benchmark on this machine. N small generated
# repositories (default 1000) in a JetStream cluster of 3 nats-server processes with
# cluster/nats-server.conf's least-privilege roles, served by 3 quarry nodes: the time to
# register and serve them all, CLI and long-lived router search p50/p95, the shards a
# search asks, each node's memory and CPU during a burst of catalog changes, and the
# answers after kill -9 of a node and of a NATS server. WORK (default /tmp/cluster-scale)
# is emptied first; NATS_SERVER (default: the installed nats-server).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
work=${WORK:-/tmp/cluster-scale}
nats=${NATS_SERVER:-$(command -v nats-server || true)}
[ -n "$nats" ] || { echo "cluster-scale: no nats-server (apt install nats-server)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/quarry" ./cmd/quarry
go build -o "$bin/clusterscale" ./bench/cmd/clusterscale
"$bin/clusterscale" -n "$n" -work "$work" -quarry "$bin/quarry" -nats "$nats" -conf cluster/nats-server.conf
