package dev.caldera.api.host;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Figures a bundle adds to the admin API's {@code /metrics}, published as a service: the kube
 * bundle's API counters (binds accepted and refused, watch errors, leadership). Called on every
 * scrape from the admin server's threads; must return quickly and not throw.
 */
@ConsumerType
public interface MetricsSource {

  /** The metric families now, each with its samples. */
  List<Family> metrics();

  /**
   * One metric family in the Prometheus sense.
   *
   * @param name e.g. {@code caldera_kube_binds_total}
   * @param type {@code counter} or {@code gauge}
   * @param help one line for {@code # HELP}
   */
  record Family(String name, String type, String help, List<Sample> samples) {
    public Family {
      samples = List.copyOf(samples);
    }

    /** A family of one sample without labels. */
    public static Family of(String name, String type, String help, double value) {
      return new Family(name, type, help, List.of(new Sample(List.of(), value)));
    }
  }

  /**
   * One sample.
   *
   * @param labels label names and values, alternating
   */
  record Sample(List<String> labels, double value) {
    public Sample {
      labels = List.copyOf(labels);
      if (labels.size() % 2 != 0) {
        throw new IllegalArgumentException("labels alternate names and values: " + labels);
      }
    }
  }
}
