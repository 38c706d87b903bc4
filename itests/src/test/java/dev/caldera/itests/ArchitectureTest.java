package dev.caldera.itests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * The layering rules: plugins see only the API, the API sees only the JDK, the framework sees none
 * of the layers above it, the runtime never uses the test kit, and a bundle's {@code internal}
 * packages are its own.
 */
@AnalyzeClasses(packages = "dev.caldera", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  private static final String JDK = "java..";
  private static final String OSGI_ANNOTATIONS = "org.osgi.annotation..";
  private static final String DS_ANNOTATIONS = "org.osgi.service.component.annotations..";
  private static final String SUPPORT = "dev.caldera.support..";

  /**
   * The concrete classes the API bundle still holds beside its interfaces, records, enums,
   * exceptions and annotations: value types plugins compute with and parsed views of a pod's terms.
   * Implementations go to the api-support bundle ({@code dev.caldera.support}); this list may only
   * shrink.
   */
  static final java.util.Set<String> API_CLASSES =
      java.util.Set.of(
          // The extension-point keys.
          "dev.caldera.api.ExtensionPoint",
          // Values: Go durations, quantities and the names resource vectors are indexed by.
          "dev.caldera.api.GoDuration",
          "dev.caldera.api.resource.Quantity",
          "dev.caldera.api.resource.ResourceNames",
          "dev.caldera.api.model.Storage");

  @ArchTest
  static final ArchRule pluginsDependOnlyOnTheApi =
      classes()
          .that()
          .resideInAPackage("dev.caldera.plugins..")
          .and()
          .resideOutsideOfPackage("dev.caldera.plugins.extender..")
          .and()
          .resideOutsideOfPackage("dev.caldera.plugins.usage..")
          .and()
          .resideOutsideOfPackage("dev.caldera.plugins.capacitycard..")
          .and()
          .resideOutsideOfPackage("dev.caldera.plugins.policy..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "dev.caldera.api..",
              SUPPORT,
              "dev.caldera.plugins..",
              JDK,
              OSGI_ANNOTATIONS,
              DS_ANNOTATIONS)
          .because("a plugin bundle imports only the API bundle and its support bundle")
          .allowEmptyShould(true);

  /**
   * Inter-pod affinity and spread counts over the placed pods are the session's ({@code
   * Session.topology()}, kept by the framework): predicates and nodeorder read them and copy them
   * for a simulation, and never build counts of their own.
   */
  @ArchTest
  static final ArchRule predicatesAndNodeorderReadTheSharedTopologyCounts =
      noClasses()
          .that()
          .resideInAnyPackage("dev.caldera.plugins.predicates..", "dev.caldera.plugins.nodeorder..")
          .should()
          .callConstructor("dev.caldera.support.placement.PairCounts")
          .because("the session's SessionTopology counts once per key for every plugin")
          .allowEmptyShould(true);

  /** Only the owner of a session's placements tells its topology keeper of changes. */
  @ArchTest
  static final ArchRule pluginsNeverChangeTheSharedTopology =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.plugins..")
          .should()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.support.placement.TopologyKeeper")
          .because("plugins read SessionTopology; the framework keeps it up to date")
          .allowEmptyShould(true);

  /** The extender talks JSON over HTTP, so it may also use Jackson; nothing else. */
  @ArchTest
  static final ArchRule extenderDependsOnlyOnTheApiAndJackson =
      classes()
          .that()
          .resideInAPackage("dev.caldera.plugins.extender..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "dev.caldera.api..",
              "dev.caldera.plugins.extender..",
              "com.fasterxml.jackson..",
              JDK,
              OSGI_ANNOTATIONS,
              DS_ANNOTATIONS)
          .because("the extender bundle imports the API bundle and Jackson")
          .allowEmptyShould(true);

  /** usage reads Prometheus's JSON answers, so it may also use Jackson; nothing else. */
  @ArchTest
  static final ArchRule usageDependsOnlyOnTheApiAndJackson =
      classes()
          .that()
          .resideInAPackage("dev.caldera.plugins.usage..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "dev.caldera.api..",
              "dev.caldera.plugins.usage..",
              "com.fasterxml.jackson..",
              JDK,
              OSGI_ANNOTATIONS,
              DS_ANNOTATIONS)
          .because("the usage bundle imports the API bundle and Jackson")
          .allowEmptyShould(true);

  /**
   * capacity-card runs reclaim policies of the framework's policy library, so it may also use the
   * policy language's exported API (never its internals); nothing else.
   */
  @ArchTest
  static final ArchRule capacityCardDependsOnlyOnTheApiAndTheDslApi =
      classes()
          .that()
          .resideInAPackage("dev.caldera.plugins.capacitycard..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "dev.caldera.api..",
              SUPPORT,
              "dev.caldera.plugins.capacitycard..",
              "dev.caldera.dsl",
              JDK,
              OSGI_ANNOTATIONS,
              DS_ANNOTATIONS)
          .because("the capacity-card bundle imports the API bundle and the dsl's exported API")
          .allowEmptyShould(true);

  /**
   * The policy plugin runs the policies of the framework's policy library and publishes the host's
   * {@code PolicyChecker} and a {@code MetricsSource}, contracts of the API bundle: it may use the
   * API and the language's exported API, nothing else.
   */
  @ArchTest
  static final ArchRule policyPluginDependsOnlyOnTheApiAndTheDslApi =
      classes()
          .that()
          .resideInAPackage("dev.caldera.plugins.policy..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "dev.caldera.api..",
              "dev.caldera.plugins.policy..",
              "dev.caldera.dsl",
              JDK,
              OSGI_ANNOTATIONS,
              DS_ANNOTATIONS)
          .because("the policy bundle imports the API bundle and the dsl's exported API")
          .allowEmptyShould(true);

  /**
   * No plugin imports the framework, the policy plugin included: what a plugin bundle publishes to
   * the host (a {@code PolicyChecker}, a {@code MetricsSource}) is a contract of {@code
   * dev.caldera.api.host}.
   */
  @ArchTest
  static final ArchRule pluginsNeverImportTheFramework =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.plugins..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.framework..")
          .because("a plugin bundle is a client of the API, never of the framework bundle");

  /**
   * The policy language, its library included, sits beside the plugins: it compiles against the API
   * alone, so the plugins that use it need no framework either.
   */
  @ArchTest
  static final ArchRule dslNeverUsesTheFramework =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.dsl..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.framework..")
          .because("the policy language bundle imports only the API bundle");

  /** Policies are compiled by the framework's policy library only, off the admin bundle. */
  @ArchTest
  static final ArchRule adminNeverCompilesPolicies =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.admin..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.dsl..")
          .because("the admin bundle is off the scheduling path");

  /** ANTLR stays behind the syntax-tree builder: parse-tree types never reach the rest. */
  @ArchTest
  static final ArchRule antlrStaysInTheParser =
      noClasses()
          .that()
          .resideOutsideOfPackage("dev.caldera.dsl.internal.parser..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.antlr..")
          .because("the policy language's tree, checker and compiler are our own types");

  @ArchTest
  static final ArchRule pluginsDoNotDependOnEachOther =
      slices()
          .matching("dev.caldera.plugins.(*)..")
          .should()
          .notDependOnEachOther()
          .because("plugin packages are private to their bundle")
          .allowEmptyShould(true);

  /**
   * Node selector terms, pod (anti-)affinity terms and topology spread constraints are parsed once
   * per pod and session ({@code TaskInfo.placement()}, by api-support's {@code PodPlacements}), and
   * every plugin reads that parse: predicates and nodeorder used to hold one parser each, and a
   * plugin that called {@code PodPlacements.of} would parse again in its session loops.
   */
  @ArchTest
  static final ArchRule pluginsReadPlacementTermsThroughTheApi =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.plugins..")
          .should()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.api.model.PodAffinityTerm")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.api.model.WeightedPodAffinityTerm")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.api.model.TopologySpreadConstraint")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.api.model.NodeSelectorRequirement")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.api.model.PreferredSchedulingTerm")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.support.placement.PodPlacements")
          .because(
              "a pod's placement terms are parsed once per pod and session (TaskInfo.placement())")
          .allowEmptyShould(true);

  /** Plugins implement the extension functions, so their types are consumer types. */
  @ArchTest
  static final ArchRule extensionFunctionsAreConsumerTypes =
      classes()
          .that()
          .resideInAPackage("dev.caldera.api..")
          .and()
          .areInterfaces()
          .and()
          .haveSimpleNameEndingWith("Fn")
          .should()
          .beAnnotatedWith(ConsumerType.class)
          .because("a plugin implements every *Fn; adding a method to one breaks plugins");

  /**
   * The API bundle is a contract: interfaces (the views and every {@code *Fn}), records, enums,
   * exceptions and annotations, and the few value classes of {@link #API_CLASSES}. An algorithm or
   * an implementation of a view belongs in the api-support bundle.
   */
  @ArchTest
  static final ArchRule apiHoldsOnlyContractsAndListedValues =
      classes()
          .that()
          .resideInAPackage("dev.caldera.api..")
          .and()
          .areTopLevelClasses()
          .and()
          .doNotHaveSimpleName("package-info")
          .should(beAContractTypeOrListed())
          .because("implementations belong in the api-support bundle (dev.caldera.support)");

  /** api-support sits between the API and its users: it sees the API, Jackson and the JDK. */
  @ArchTest
  static final ArchRule apiSupportDependsOnlyOnTheApiAndJackson =
      classes()
          .that()
          .resideInAPackage(SUPPORT)
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "dev.caldera.api..", SUPPORT, "com.fasterxml.jackson.core..", JDK, OSGI_ANNOTATIONS)
          .because("api-support never sees the framework, plugins or any bundle above the API");

  @ArchTest
  static final ArchRule apiDependsOnlyOnTheJdk =
      classes()
          .that()
          .resideInAPackage("dev.caldera.api..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("dev.caldera.api..", JDK, OSGI_ANNOTATIONS, DS_ANNOTATIONS)
          .because("the API bundle has no dependencies but the JDK");

  @ArchTest
  static final ArchRule apiNeverDependsOnTheFramework =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.api..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.framework..");

  /** {@code caldera policy test} reads cases through the framework's views, not test fakes. */
  @ArchTest
  static final ArchRule runtimeNeverUsesTheTestKit =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.runtime..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.testkit..")
          .because("the test kit's fakes are for tests and do not ship in lib/");

  /** The framework sits below the cluster sources, the admin bundle and the policy language. */
  @ArchTest
  static final ArchRule frameworkNeverUsesTheLayersAboveIt =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.framework..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "dev.caldera.dsl..",
              "dev.caldera.sim..",
              "dev.caldera.kube..",
              "dev.caldera.admin..",
              "dev.caldera.runtime..",
              "dev.caldera.testkit..")
          .because("the framework depends only on the API (and its own libraries)");

  @ArchTest
  static final ArchRule frameworkInternalsStayInTheFramework =
      noClasses()
          .that()
          .resideOutsideOfPackage("dev.caldera.framework..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.framework..internal..");

  @ArchTest
  static final ArchRule simInternalsStayInTheSim =
      noClasses()
          .that()
          .resideOutsideOfPackage("dev.caldera.sim..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.sim..internal..");

  /**
   * The kube bundle's exported face ({@code dev.caldera.kube}: {@code KubeCluster}, {@code
   * PluginBundles}, ...) wires its internals, which never use it back; only the OSGi shell above
   * both may use both.
   */
  @ArchTest
  static final ArchRule kubeInternalsNeverUseTheKubeFace =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.kube.internal..")
          .and()
          .resideOutsideOfPackage("dev.caldera.kube.internal.osgi..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.caldera.kube")
          .because("a use back from the internals would make a package cycle")
          .allowEmptyShould(true);

  /** No cycle between the packages of the kube bundle. */
  @ArchTest
  static final ArchRule kubePackagesAreFreeOfCycles =
      slices()
          .assignedFrom(packagesUnder("dev.caldera.kube"))
          .should()
          .beFreeOfCycles()
          .allowEmptyShould(true);

  /** No cycle between Caldera's bundles and modules (the module graph: {@link #bundleOf}). */
  @ArchTest
  static final ArchRule bundlesAreFreeOfCycles =
      slices().assignedFrom(bundles()).should().beFreeOfCycles();

  /**
   * The scheduling loop is the framework's ({@code caldera run}); the kube bundle is a cluster
   * source and writer and runs no sessions of its own (a second loop used only by tests once lived
   * there).
   */
  @ArchTest
  static final ArchRule kubeRunsNoSessions =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.kube..")
          .should()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.caldera.framework.Scheduler")
          .because("test loops belong in test sources, the product's loop in the framework")
          .allowEmptyShould(true);

  /**
   * The command line serves no HTTP of its own: the admin bundle serves the console and API, and
   * the class data training's stand-in API server lives in its own jar (lib/training/), on no
   * command's class path.
   */
  @ArchTest
  static final ArchRule runtimeServesNoHttp =
      noClasses()
          .that()
          .resideInAPackage("dev.caldera.runtime..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.sun.net.httpserver..")
          .because("test and build tooling stays out of lib/");

  /** Owner class name → the one method of it that may admit. */
  static final java.util.Map<String, String> ADMITTING_CODE =
      java.util.Map.of(
          "dev.caldera.kube.internal.ClusterCache", "snapshot",
          "dev.caldera.sim.EmbeddedCluster", "admitNew");

  private static final java.util.Set<String> ADMITTING_METHODS =
      java.util.Set.of("admit", "withDefaultQueues");

  /**
   * Objects are admitted (priorities filled, implicit pod groups and stand-in queues added) in one
   * place per cluster source, when a session's snapshot is taken: {@code ClusterCache.snapshot} for
   * Kubernetes, {@code EmbeddedCluster.admitNew} (called by its snapshot and its state) for the
   * embedded cluster. A scenario's objects reach the scheduler through the latter.
   */
  @ArchTest
  static final ArchRule admissionHappensOnlyAtSnapshot =
      classes().should(admitOnlyIn(ADMITTING_CODE));

  /**
   * The code that reads scenario files and manifests into objects: the loader, the manifest
   * directory and the readers of {@code dev.caldera.sim.internal}.
   */
  static final com.tngtech.archunit.base.DescribedPredicate<JavaClass> READERS_OF_OBJECTS =
      com.tngtech.archunit.base.DescribedPredicate.describe(
          "read scenario files or manifests",
          c ->
              c.getPackageName().equals("dev.caldera.sim.internal")
                  || c.getName().equals("dev.caldera.sim.ScenarioLoader")
                  || c.getName().equals("dev.caldera.sim.internal.live.ManifestDirectory"));

  /**
   * Reading a scenario or a manifest keeps the objects as written: the readers may hand them to an
   * {@code EmbeddedCluster} but never take its snapshot or state, which would admit them at load
   * (as the loader once did to fill {@code Scenario.initialState}).
   */
  @ArchTest
  static final ArchRule readersOfObjectsNeverAdmit =
      noClasses()
          .that(READERS_OF_OBJECTS)
          .should()
          .callMethodWhere(
              com.tngtech.archunit.base.DescribedPredicate.describe(
                  "the target is EmbeddedCluster.snapshot or EmbeddedCluster.state",
                  call ->
                      call.getTargetOwner().getName().equals("dev.caldera.sim.EmbeddedCluster")
                          && java.util.Set.of("snapshot", "state").contains(call.getName())))
          .because("objects are admitted at a session's snapshot, not when a file is read");

  static ArchCondition<JavaClass> admitOnlyIn(java.util.Map<String, String> allowed) {
    return new ArchCondition<>("admit objects only in " + allowed) {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        for (com.tngtech.archunit.core.domain.JavaMethodCall call : c.getMethodCallsFromSelf()) {
          if (!call.getTargetOwner().getName().equals("dev.caldera.admission.Admission")
              || !ADMITTING_METHODS.contains(call.getName())) {
            continue;
          }
          String origin = call.getOrigin().getName();
          if (!origin.equals(allowed.get(c.getName()))) {
            events.add(
                SimpleConditionEvent.violated(
                    c,
                    c.getName()
                        + "."
                        + origin
                        + " calls Admission."
                        + call.getName()
                        + ": admission belongs to the snapshot of a cluster source"));
          }
        }
      }
    };
  }

  private static com.tngtech.archunit.library.dependencies.SliceAssignment packagesUnder(
      String root) {
    return new com.tngtech.archunit.library.dependencies.SliceAssignment() {
      @Override
      public com.tngtech.archunit.library.dependencies.SliceIdentifier getIdentifierOf(
          JavaClass javaClass) {
        String p = javaClass.getPackageName();
        return p.equals(root) || p.startsWith(root + ".")
            ? com.tngtech.archunit.library.dependencies.SliceIdentifier.of(p)
            : com.tngtech.archunit.library.dependencies.SliceIdentifier.ignore();
      }

      @Override
      public String getDescription() {
        return "the packages of " + root;
      }
    };
  }

  private static com.tngtech.archunit.library.dependencies.SliceAssignment bundles() {
    return new com.tngtech.archunit.library.dependencies.SliceAssignment() {
      @Override
      public com.tngtech.archunit.library.dependencies.SliceIdentifier getIdentifierOf(
          JavaClass javaClass) {
        String p = javaClass.getPackageName();
        return p.startsWith("dev.caldera.")
            ? com.tngtech.archunit.library.dependencies.SliceIdentifier.of(bundleOf(p))
            : com.tngtech.archunit.library.dependencies.SliceIdentifier.ignore();
      }

      @Override
      public String getDescription() {
        return "Caldera's bundles";
      }
    };
  }

  @ArchTest
  static final ArchRule internalsStayInTheirBundle =
      classes().should(onlyUseInternalPackagesOfTheirOwnBundle());

  /**
   * The bundle a Caldera package belongs to: {@code dev.caldera.plugins.<name>} for plugins, else
   * {@code dev.caldera.<module>}.
   */
  static String bundleOf(String packageName) {
    String[] parts = packageName.split("\\.");
    int segments = parts.length > 2 && parts[2].equals("plugins") ? 4 : 3;
    return String.join(".", java.util.Arrays.copyOf(parts, Math.min(segments, parts.length)));
  }

  static boolean isInternal(String packageName) {
    return packageName.startsWith("dev.caldera.")
        && (packageName.contains(".internal.") || packageName.endsWith(".internal"));
  }

  private static ArchCondition<JavaClass> beAContractTypeOrListed() {
    return new ArchCondition<>("be an interface, record, enum, exception or annotation") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        boolean contract =
            c.isInterface()
                || c.isAssignableTo(Record.class)
                || c.isEnum()
                || c.isAnnotation()
                || c.isAssignableTo(Throwable.class)
                || API_CLASSES.contains(c.getName());
        if (!contract) {
          events.add(
              SimpleConditionEvent.violated(
                  c, c.getName() + " is a class with behaviour; move it to api-support"));
        }
      }
    };
  }

  private static ArchCondition<JavaClass> onlyUseInternalPackagesOfTheirOwnBundle() {
    return new ArchCondition<>("only use internal packages of their own bundle") {
      @Override
      public void check(JavaClass origin, ConditionEvents events) {
        String from = bundleOf(origin.getPackageName());
        for (Dependency d : origin.getDirectDependenciesFromSelf()) {
          String target = d.getTargetClass().getBaseComponentType().getPackageName();
          if (isInternal(target) && !bundleOf(target).equals(from)) {
            events.add(SimpleConditionEvent.violated(d, d.getDescription()));
          }
        }
      }
    };
  }
}
