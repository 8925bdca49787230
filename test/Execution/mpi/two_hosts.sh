#!/bin/sh
# Runs a program on two "hosts" with OpenMPI's TCP transport and compares
# the result with the in-process run. The hosts are two network namespaces
# of this machine joined by a veth pair (10.77.0.1 and 10.77.0.2); mpirun
# runs in the first and starts the daemons through a launch agent that
# enters the namespace named by the host address, as ssh would log in to a
# host. Without permission to create namespaces, it falls back to one host
# with shared memory disabled (TCP over loopback) and says so.
#
# Usage: two_hosts.sh TRELLIS_RUN PYTHON WORKDIR PROGRAM NP [ARGS...]
set -eu
run=$1 python=$2 work=$3 program=$4 np=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
ns1=trellis_h1_$$ ns2=trellis_h2_$$ v1=trv1_$$ v2=trv2_$$
cleanup() {
  ip netns del "$ns1" 2>/dev/null || true
  ip netns del "$ns2" 2>/dev/null || true
}
trap cleanup EXIT

"$run" "$program" "$@" --quiet --output-dir "$work/threads"

mpi="--oversubscribe --bind-to none --mca btl tcp,self"
if ip netns add "$ns1" 2>/dev/null && ip netns add "$ns2" &&
   ip link add "$v1" type veth peer name "$v2" &&
   ip link set "$v1" netns "$ns1" && ip link set "$v2" netns "$ns2" &&
   ip -n "$ns1" addr add 10.77.0.1/24 dev "$v1" &&
   ip -n "$ns2" addr add 10.77.0.2/24 dev "$v2" &&
   ip -n "$ns1" link set "$v1" up && ip -n "$ns2" link set "$v2" up &&
   ip -n "$ns1" link set lo up && ip -n "$ns2" link set lo up; then
  echo "mode: two network namespaces"
  echo "$ns1" > "$work/ns-10.77.0.1"
  echo "$ns2" > "$work/ns-10.77.0.2"
  half=$((np / 2))
  printf "10.77.0.1 slots=%s\n10.77.0.2 slots=%s\n" "$half" "$((np - half))" \
    > "$work/hostfile"
  cat > "$work/agent.sh" <<AGENT
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift ;; *) break ;; esac; done
host=\$1; shift
exec ip netns exec "\$(cat "$work/ns-\$host")" sh -c "\$*"
AGENT
  chmod +x "$work/agent.sh"
  ip netns exec "$ns1" mpirun $mpi --hostfile "$work/hostfile" -np "$np" \
    --mca plm_rsh_agent "$work/agent.sh" \
    --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24 \
    sh -c 'echo "rank $OMPI_COMM_WORLD_RANK in $(ip netns identify $$)"' |
    sort > "$work/placement.txt"
  cat "$work/placement.txt"
  ip netns exec "$ns1" mpirun $mpi --hostfile "$work/hostfile" -np "$np" \
    --mca plm_rsh_agent "$work/agent.sh" \
    --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24 \
    "$run" --backend=mpi "$program" "$@" --quiet --output-dir "$work/mpi"
else
  echo "mode: loopback TCP (network namespaces not permitted here)"
  mpirun $mpi -np "$np" "$run" --backend=mpi "$program" "$@" --quiet \
    --output-dir "$work/mpi"
fi
"$python" - "$work" <<'PY'
import glob, os, sys
import numpy as np
work = sys.argv[1]
ok = True
for a in sorted(glob.glob(os.path.join(work, "threads", "out*.npy"))):
    x = np.load(a)
    y = np.load(os.path.join(work, "mpi", os.path.basename(a)))
    same = np.array_equal(x, y) or (x.dtype.kind == "f" and np.allclose(x, y, rtol=1e-5, atol=1e-5))
    ok &= same
    print(os.path.basename(a), "same" if same else "DIFFERENT")
print("OK" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
