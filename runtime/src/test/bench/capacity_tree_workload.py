#!/usr/bin/env python3
"""Writes a `caldera bench --scenario` file: the bench-workload.md cluster with 50 leaf queues,
either as a 3-level capacity tree (root -> 5 teams of weight 1..5 -> 10 leaves each, capacity
with enableHierarchy) or flat (50 queues of weight 1, proportion), to compare the two.

  capacity_tree_workload.py --variant tree --nodes 5000 --pods 50000 > tree-medium.yaml
  capacity_tree_workload.py --variant flat --nodes 5000 --pods 50000 > flat-medium.yaml
  JAVA_OPTS=-Xmx6g runtime/target/caldera/bin/caldera bench --scenario tree-medium.yaml
"""
import argparse
import datetime
import sys

TASKS_PER_JOB = 10


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--variant", choices=["tree", "flat"], required=True)
    p.add_argument("--nodes", type=int, default=5000)
    p.add_argument("--pods", type=int, default=50000)
    a = p.parse_args()
    w = sys.stdout.write
    plugin = "{name: capacity, enableHierarchy: true}" if a.variant == "tree" else "{name: proportion}"
    w("name: bench-%s-%d-%d\n" % (a.variant, a.nodes, a.pods))
    w("conf:\n  actions: \"enqueue, allocate, backfill\"\n  tiers:\n")
    w("  - plugins: [{name: priority}, {name: gang}, {name: conformance}]\n")
    w("  - plugins: [{name: drf}, {name: predicates}, %s, {name: nodeorder}, {name: binpack}]\n" % plugin)
    w("objects:\n")
    for i in range(a.nodes):
        w("- {apiVersion: v1, kind: Node, metadata: {name: node-%05d, labels: {topology.kubernetes.io/zone: zone-%d}},"
          " status: {allocatable: {cpu: \"32\", memory: 128Gi, pods: \"110\"}}}\n" % (i, i % 4))
    leaves = []
    if a.variant == "tree":
        w("- {apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: root}, spec: {weight: 1}}\n")
        for t in range(5):
            w("- {apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: team-%d},"
              " spec: {weight: %d, parent: root}}\n" % (t, t + 1))
            for l in range(10):
                leaves.append("team-%d-q%d" % (t, l))
                w("- {apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: %s},"
                  " spec: {weight: 1, parent: team-%d}}\n" % (leaves[-1], t))
    else:
        for q in range(50):
            leaves.append("queue-%02d" % q)
            w("- {apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: %s},"
              " spec: {weight: 1}}\n" % leaves[-1])
    base = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    for j in range(a.pods // TASKS_PER_JOB):
        created = (base + datetime.timedelta(seconds=j)).strftime("%Y-%m-%dT%H:%M:%SZ")
        w("- {apiVersion: scheduling.volcano.sh/v1beta1, kind: PodGroup, metadata: {name: job-%d, namespace: bench,"
          " creationTimestamp: \"%s\"}, spec: {queue: %s, minMember: %d}, status: {phase: Inqueue}}\n"
          % (j, created, leaves[j % len(leaves)], TASKS_PER_JOB))
        for k in range(TASKS_PER_JOB):
            w("- {apiVersion: v1, kind: Pod, metadata: {name: job-%d-%d, namespace: bench, creationTimestamp: \"%s\","
              " annotations: {scheduling.k8s.io/group-name: job-%d}}, spec: {schedulerName: volcano,"
              " containers: [{name: c, resources: {requests: {cpu: \"1\", memory: 2Gi}}}]}, status: {phase: Pending}}\n"
              % (j, k, created, j))


if __name__ == "__main__":
    main()
