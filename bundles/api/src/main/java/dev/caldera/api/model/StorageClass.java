package dev.caldera.api.model;

import java.util.List;

/**
 * The parts of a {@code storage.k8s.io/v1} StorageClass that volume binding reads.
 *
 * @param provisioner {@code provisioner}; {@value #NO_PROVISIONER} means the class cannot provision
 * @param volumeBindingMode {@code volumeBindingMode}: {@value #IMMEDIATE} (the default) or {@value
 *     #WAIT_FOR_FIRST_CONSUMER}
 * @param allowedTopologies {@code allowedTopologies}, each {@code matchLabelExpressions} as a term
 *     of {@code In} requirements (ORed); empty when provisioning is allowed anywhere
 */
public record StorageClass(
    ObjectMeta metadata,
    String provisioner,
    String volumeBindingMode,
    List<NodeSelectorTerm> allowedTopologies) {

  public static final String IMMEDIATE = "Immediate";
  public static final String WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer";
  public static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";

  public StorageClass {
    provisioner = provisioner == null ? "" : provisioner;
    volumeBindingMode =
        volumeBindingMode == null || volumeBindingMode.isEmpty() ? IMMEDIATE : volumeBindingMode;
    allowedTopologies = allowedTopologies == null ? List.of() : List.copyOf(allowedTopologies);
  }

  /** The class's name. */
  public String name() {
    return metadata.name();
  }

  /** Whether binding waits until a pod using the claim is scheduled. */
  public boolean waitForFirstConsumer() {
    return WAIT_FOR_FIRST_CONSUMER.equals(volumeBindingMode);
  }

  /** Whether a volume can be provisioned for the class at all. */
  public boolean canProvision() {
    return !provisioner.isEmpty() && !NO_PROVISIONER.equals(provisioner);
  }
}
