package dev.caldera.plugins.capacitycard;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.util.ArrayList;
import java.util.List;

/**
 * What one pod asks of its queue's quota.
 *
 * <p>A pod that names its card ({@value CardAnnotations#NAME}) asks for {@link #count} of the named
 * card (or of one of the alternatives), its request for that card's resource. A pod that requests a
 * card resource without naming a card asks for cards of whatever model the node it lands on has
 * ({@link #unnamedResources}). CPU and memory are asked unless the plugin exempts pods that use
 * cards ({@code cardUnlimitedCpuMemory}).
 *
 * @param queue the account of the pod's queue, or null when the queue is unknown
 * @param cards the named cards (alternatives in order of preference), or null
 * @param resource the resource index that counts the named cards, or -1
 * @param count how many named cards
 * @param unnamedResources card resources requested without a name
 * @param unnamedCounts how many of each
 * @param cpu milli-cpu charged to the queue (0 when exempt)
 * @param memory bytes charged to the queue (0 when exempt)
 * @param problem why the pod cannot be placed at all (an event on the pod), or null
 * @param warning a problem that does not stop the pod (an event on the pod), or null
 * @param refusal the predicate's answer for a node that cannot take the pod whatever the quota (no
 *     card of the pod's models, or a problem), made once; OK when the pod names no card
 */
record Demand(
    QueueAccount queue,
    CardSet cards,
    int resource,
    double count,
    int[] unnamedResources,
    double[] unnamedCounts,
    double cpu,
    double memory,
    String problem,
    String warning,
    Status refusal) {

  /** Whether the pod asks for cards at all. */
  boolean usesCards() {
    return cards != null || unnamedResources.length > 0;
  }

  /** Whether the pod names more than one model. */
  boolean multiModel() {
    return cards != null && cards.size() > 1;
  }

  /** Reads a task's demand. */
  static Demand of(
      TaskInfo task, QueueAccount queue, CardCatalog catalog, boolean cardUnlimitedCpuMemory) {
    ResourceView request = task.resreq();
    List<Integer> unnamed = new ArrayList<>();
    for (int r : request.scalarIndices()) {
      if (catalog.isCardResource(r) && request.get(r) > 0) {
        unnamed.add(r);
      }
    }
    String annotation = task.pod().metadata().annotations().get(CardAnnotations.NAME);
    CardAnnotations.Names names = CardAnnotations.names(annotation);
    CardSet cards = null;
    int resource = -1;
    double count = 0;
    String problem = null;
    String warning = null;
    if (names.problem() != null) {
      problem = CardAnnotations.NAME + ": " + names.problem();
    } else if (!names.names().isEmpty()) {
      List<String> known = new ArrayList<>();
      List<String> unknown = new ArrayList<>();
      for (String n : names.names()) {
        int id = catalog.id(n);
        (id >= 0 && catalog.resource(id) >= 0 ? known : unknown).add(n);
      }
      if (known.isEmpty()) {
        problem =
            CardAnnotations.NAME
                + ": no node has "
                + (unknown.size() == 1 ? "card " : "cards ")
                + String.join(", ", unknown);
      } else {
        resource = catalog.resource(catalog.id(known.get(0)));
        for (String n : known) {
          int r = catalog.resource(catalog.id(n));
          if (r != resource && problem == null) {
            problem = mixedTypes(annotation, catalog, known.get(0), n);
          }
        }
        if (problem == null) {
          count = request.get(resource) / 1000.0;
          if (count <= 0) {
            problem =
                CardAnnotations.NAME
                    + ": the pod names "
                    + String.join(CardAnnotations.SEPARATOR, known)
                    + " but requests no "
                    + ResourceNames.nameOf(resource);
          } else {
            int[] ids = new int[known.size()];
            for (int i = 0; i < ids.length; i++) {
              ids[i] = catalog.id(known.get(i));
            }
            cards = new CardSet(ids, String.join(CardAnnotations.SEPARATOR, known));
            unnamed.remove(Integer.valueOf(resource));
          }
        }
        if (problem == null && !unknown.isEmpty()) {
          warning =
              CardAnnotations.NAME
                  + ": no node has "
                  + (unknown.size() == 1 ? "card " : "cards ")
                  + String.join(", ", unknown)
                  + ", using "
                  + String.join(CardAnnotations.SEPARATOR, known);
        }
      }
    }
    if (problem != null) {
      cards = null;
      resource = -1;
      count = 0;
    }
    int[] unnamedResources = new int[unnamed.size()];
    double[] unnamedCounts = new double[unnamed.size()];
    for (int i = 0; i < unnamedResources.length; i++) {
      unnamedResources[i] = unnamed.get(i);
      unnamedCounts[i] = request.get(unnamed.get(i)) / 1000.0;
    }
    boolean exempt =
        cardUnlimitedCpuMemory && (cards != null || unnamedResources.length > 0 || named(names));
    double cpu = exempt ? 0 : request.milliCpu();
    double memory = exempt ? 0 : request.memory();
    return new Demand(
        queue,
        cards,
        resource,
        count,
        unnamedResources,
        unnamedCounts,
        cpu,
        memory,
        problem,
        warning,
        problem != null
            ? Status.unresolvable(problem)
            : cards != null
                ? Status.unresolvable("node(s) without card <" + cards.display() + ">")
                : Status.OK);
  }

  private static boolean named(CardAnnotations.Names names) {
    return !names.names().isEmpty();
  }

  private static String mixedTypes(String annotation, CardCatalog catalog, String a, String b) {
    String ra = ResourceNames.nameOf(catalog.resource(catalog.id(a)));
    String rb = ResourceNames.nameOf(catalog.resource(catalog.id(b)));
    return CardAnnotations.NAME
        + ": \""
        + annotation
        + "\" mixes card types: "
        + a
        + " is counted in "
        + ra
        + ", "
        + b
        + " in "
        + rb
        + "; alternatives must use the same resource";
  }
}
