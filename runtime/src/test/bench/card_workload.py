#!/usr/bin/env python3
"""Writes a `caldera bench --scenario` file for the capacity-card plugin, or the same-sized
plain capacity cluster to compare it with.

  card_workload.py --variant card  --nodes 5000 --pods 50000 > card-medium.yaml
  card_workload.py --variant plain --nodes 5000 --pods 50000 > plain-medium.yaml

card:  nodes carry one of 4 card models (8 cards each, `nvidia.com/gpu.*` labels); 20 queues
       have a `volcano.sh/card.quota` for two models; jobs of 10 pods are Pending with
       minResources; 60% of the jobs use cards (one card per pod; a quarter of those name two
       models, `A|B`), the rest are CPU only. capacity-card runs with cardUnlimitedCpuMemory.
plain: the same nodes without cards, the same queues with a CPU/memory capability only, the
       same jobs without card requests or annotations; the capacity plugin.

Every pod fits: the cluster and the quotas have room for the whole backlog.
"""
import argparse
import sys

MODELS = [
    ("NVIDIA-H200", 143771),
    ("NVIDIA-H800", 81559),
    ("NVIDIA-GeForce-RTX-4090", 24564),
    ("NVIDIA-A100-SXM4-80GB", 81920),
]
CARDS_PER_NODE = 8


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--variant", choices=["card", "plain"], required=True)
    p.add_argument("--nodes", type=int, default=5000)
    p.add_argument("--pods", type=int, default=50000)
    p.add_argument("--queues", type=int, default=20)
    p.add_argument("--tasks-per-job", type=int, default=10)
    a = p.parse_args()
    card = a.variant == "card"
    w = sys.stdout.write

    w("name: bench-%s-%dn-%dp\n" % (a.variant, a.nodes, a.pods))
    w("conf:\n  actions: \"enqueue, allocate, backfill\"\n  tiers:\n")
    w("  - plugins: [{name: priority}, {name: gang}, {name: conformance}]\n")
    quota_plugin = (
        "{name: capacity-card, arguments: {cardUnlimitedCpuMemory: true}}"
        if card
        else "{name: capacity}"
    )
    w("  - plugins: [{name: drf}, {name: predicates}, %s, {name: nodeorder}, {name: binpack}]\n"
      % quota_plugin)
    w("objects:\n")

    for i in range(a.nodes):
        model, memory = MODELS[i % len(MODELS)]
        labels = "topology.kubernetes.io/zone: zone-%d" % (i % 4)
        alloc = "cpu: '32', memory: 128Gi, pods: '110'"
        if card:
            labels += (", nvidia.com/gpu.product: %s, nvidia.com/gpu.count: '%d',"
                       " nvidia.com/gpu.memory: '%d'" % (model, CARDS_PER_NODE, memory))
            alloc += ", nvidia.com/gpu: '%d'" % CARDS_PER_NODE
        w("- {apiVersion: v1, kind: Node, metadata: {name: node-%05d, labels: {%s}},"
          " status: {allocatable: {%s}}}\n" % (i, labels, alloc))

    jobs = a.pods // a.tasks_per_job
    cards_per_model = a.nodes // len(MODELS) * CARDS_PER_NODE
    # Each model is the first choice of queues/4 queues and the second of as many: a quota of
    # the whole model's cards for the first and half for the second exceeds the cluster, as
    # quotas may.
    for q in range(a.queues):
        first, second = MODELS[q % 4][0], MODELS[(q + 1) % 4][0]
        annotations = ""
        if card:
            annotations = (", annotations: {volcano.sh/card.quota: '{\"%s\":%d,\"%s\":%d}'}"
                           % (first, cards_per_model, second, cards_per_model // 2))
        w("- {apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: queue-%02d%s},"
          " spec: {weight: 1, capability: {cpu: '%d', memory: %dGi}}}\n"
          % (q, annotations, 32 * a.nodes, 128 * a.nodes))

    for j in range(jobs):
        q = j % a.queues
        uses_cards = card and j % 5 < 3
        names = MODELS[q % 4][0]
        if uses_cards and j % 20 < 3:
            names += "|" + MODELS[(q + 1) % 4][0]
        t = a.tasks_per_job
        min_res = "cpu: '%d', memory: %dGi" % (t, 2 * t)
        pg_annotations = ""
        if uses_cards:
            min_res += ", nvidia.com/gpu: '%d'" % t
            pg_annotations = ", annotations: {volcano.sh/card.request: '{\"%s\":%d}'}" % (names, t)
        stamp = "2026-01-01T%02d:%02d:%02dZ" % (j // 3600 % 24, j // 60 % 60, j % 60)
        w("- {apiVersion: scheduling.volcano.sh/v1beta1, kind: PodGroup, metadata: {name: job-%d,"
          " namespace: bench, creationTimestamp: '%s'%s}, spec: {queue: queue-%02d, minMember: %d,"
          " minResources: {%s}}, status: {phase: Pending}}\n"
          % (j, stamp, pg_annotations, q, t, min_res))
        requests = "cpu: '1', memory: 2Gi"
        pod_annotations = "scheduling.k8s.io/group-name: job-%d" % j
        if uses_cards:
            requests += ", nvidia.com/gpu: '1'"
            pod_annotations += ", volcano.sh/card.name: '%s'" % names
        for k in range(t):
            w("- {apiVersion: v1, kind: Pod, metadata: {name: job-%d-%d, namespace: bench,"
              " creationTimestamp: '%s', annotations: {%s}}, spec: {schedulerName: volcano,"
              " containers: [{name: c, resources: {requests: {%s}}}]}, status: {phase: Pending}}\n"
              % (j, k, stamp, pod_annotations, requests))


if __name__ == "__main__":
    main()
