package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.caldera.api.GoDuration;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.fixture.HasAnAlgorithm;
import dev.caldera.api.fixture.LeakyApi;
import dev.caldera.api.fixture.UnmarkedFn;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.framework.fixture.UsesTheDsl;
import dev.caldera.itests.fixtures.AdmitsAtLoad;
import dev.caldera.itests.fixtures.UsesFrameworkInternals;
import dev.caldera.kube.fixture.AsksTheSimBundle;
import dev.caldera.kube.fixture.RunsItsOwnLoop;
import dev.caldera.kube.fixture.cycle.Face;
import dev.caldera.kube.fixture.cycle.internal.Piece;
import dev.caldera.kube.internal.fixture.UsesTheKubeFace;
import dev.caldera.plugins.fixture.CleanPlugin;
import dev.caldera.plugins.fixture.LeakyPlugin;
import dev.caldera.plugins.fixture.ParsesItsOwnAffinity;
import dev.caldera.plugins.fixture.ParsesThePodAgain;
import dev.caldera.runtime.fixture.ServesHttp;
import dev.caldera.runtime.fixture.UsesTheTestKit;
import dev.caldera.sim.fixture.AsksTheKubeBundle;
import dev.caldera.sim.internal.AdmitsWhileReading;
import dev.caldera.support.fixture.SupportUsingTheFramework;
import dev.caldera.support.json.AnnotationJson;
import dev.caldera.support.resource.ReadOnlyResource;
import dev.caldera.support.resource.Resource;
import org.junit.jupiter.api.Test;

/**
 * The layering rules of {@link ArchitectureTest} catch violations (fixtures break them on purpose).
 */
class ArchitectureRulesTest {

  private static JavaClasses classes(Class<?>... types) {
    return new ClassFileImporter().importClasses(types);
  }

  @Test
  void apiContractRule_rejectsAClassWithBehaviour() {
    assertThat(
            ArchitectureTest.apiHoldsOnlyContractsAndListedValues
                .evaluate(classes(HasAnAlgorithm.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void apiContractRule_acceptsInterfacesRecordsEnumsExceptionsAndListedValues() {
    assertThat(
            ArchitectureTest.apiHoldsOnlyContractsAndListedValues
                .evaluate(
                    classes(
                        ResourceView.class,
                        Blocker.class,
                        TaskStatus.class,
                        PluginArgumentException.class,
                        Resource.class,
                        ReadOnlyResource.class,
                        GoDuration.class))
                .getFailureReport()
                .getDetails())
        .isEmpty();
  }

  @Test
  void supportRule_rejectsApiSupportUsingTheFramework_acceptsTheReader() {
    assertThat(
            ArchitectureTest.apiSupportDependsOnlyOnTheApiAndJackson
                .evaluate(classes(SupportUsingTheFramework.class))
                .hasViolation())
        .isTrue();
    assertThat(
            ArchitectureTest.apiSupportDependsOnlyOnTheApiAndJackson
                .evaluate(classes(AnnotationJson.class))
                .getFailureReport()
                .getDetails())
        .isEmpty();
  }

  @Test
  void pluginRule_rejectsAPluginUsingTheFramework() {
    assertThat(
            ArchitectureTest.pluginsDependOnlyOnTheApi
                .evaluate(classes(LeakyPlugin.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void pluginRule_acceptsAPluginUsingOnlyTheApiAndTheJdk() {
    assertThat(
            ArchitectureTest.pluginsDependOnlyOnTheApi
                .evaluate(classes(CleanPlugin.class))
                .getFailureReport()
                .getDetails())
        .isEmpty();
  }

  @Test
  void placementRule_rejectsAPluginReadingAffinityTermsItself_acceptsACleanOne() {
    assertThat(
            ArchitectureTest.pluginsReadPlacementTermsThroughTheApi
                .evaluate(classes(ParsesItsOwnAffinity.class))
                .hasViolation())
        .isTrue();
    assertThat(
            ArchitectureTest.pluginsReadPlacementTermsThroughTheApi
                .evaluate(classes(CleanPlugin.class))
                .hasViolation())
        .isFalse();
  }

  @Test
  void placementRule_rejectsAPluginParsingATasksPlacementAgain() {
    assertThat(
            ArchitectureTest.pluginsReadPlacementTermsThroughTheApi
                .evaluate(classes(ParsesThePodAgain.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void consumerTypeRule_rejectsAnUnmarkedFunctionType_acceptsAMarkedOne() {
    assertThat(
            ArchitectureTest.extensionFunctionsAreConsumerTypes
                .evaluate(classes(UnmarkedFn.class))
                .hasViolation())
        .isTrue();
    assertThat(
            ArchitectureTest.extensionFunctionsAreConsumerTypes
                .evaluate(classes(PredicateFn.class))
                .hasViolation())
        .isFalse();
  }

  @Test
  void apiRules_rejectAnApiClassUsingTheFramework() {
    JavaClasses leaky = classes(LeakyApi.class);

    assertThat(ArchitectureTest.apiDependsOnlyOnTheJdk.evaluate(leaky).hasViolation()).isTrue();
    assertThat(ArchitectureTest.apiNeverDependsOnTheFramework.evaluate(leaky).hasViolation())
        .isTrue();
  }

  @Test
  void internalRules_rejectAnotherBundleUsingFrameworkInternals() {
    JavaClasses leaky = classes(UsesFrameworkInternals.class);

    assertThat(ArchitectureTest.frameworkInternalsStayInTheFramework.evaluate(leaky).hasViolation())
        .isTrue();
    assertThat(ArchitectureTest.internalsStayInTheirBundle.evaluate(leaky).hasViolation()).isTrue();
  }

  @Test
  void frameworkRule_rejectsAFrameworkClassUsingThePolicyLanguage() {
    assertThat(
            ArchitectureTest.frameworkNeverUsesTheLayersAboveIt
                .evaluate(classes(UsesTheDsl.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void runtimeRule_rejectsARuntimeClassUsingTheTestKit() {
    assertThat(
            ArchitectureTest.runtimeNeverUsesTheTestKit
                .evaluate(classes(UsesTheTestKit.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void bundleOf_separatesPluginsAndModules() {
    assertThat(ArchitectureTest.bundleOf("dev.caldera.plugins.gang.internal"))
        .isEqualTo("dev.caldera.plugins.gang");
    assertThat(ArchitectureTest.bundleOf("dev.caldera.framework.internal.session"))
        .isEqualTo("dev.caldera.framework");
    assertThat(ArchitectureTest.bundleOf("dev.caldera.sim")).isEqualTo("dev.caldera.sim");
  }

  @Test
  void isInternal_matchesOnlyCalderaInternalPackages() {
    assertThat(ArchitectureTest.isInternal("dev.caldera.sim.internal")).isTrue();
    assertThat(ArchitectureTest.isInternal("dev.caldera.framework.internal.session")).isTrue();
    assertThat(ArchitectureTest.isInternal("dev.caldera.framework.conf")).isFalse();
    assertThat(ArchitectureTest.isInternal("jdk.internal.misc")).isFalse();
  }

  @Test
  void kubeFaceRule_rejectsAnInternalClassUsingTheExportedPackage() {
    assertThat(
            ArchitectureTest.kubeInternalsNeverUseTheKubeFace
                .evaluate(classes(UsesTheKubeFace.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void kubeCycleRule_rejectsAFaceAndAPieceUsingEachOther() {
    assertThat(
            ArchitectureTest.kubePackagesAreFreeOfCycles
                .evaluate(classes(Face.class, Piece.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void bundleCycleRule_rejectsTwoBundlesUsingEachOther_notTwoPackagesOfOneBundle() {
    assertThat(
            ArchitectureTest.bundlesAreFreeOfCycles
                .evaluate(classes(AsksTheKubeBundle.class, AsksTheSimBundle.class))
                .hasViolation())
        .isTrue();
    assertThat(
            ArchitectureTest.bundlesAreFreeOfCycles
                .evaluate(classes(Face.class, Piece.class))
                .hasViolation())
        .isFalse();
  }

  @Test
  void kubeLoopRule_rejectsAClusterSourceRunningSessions() {
    assertThat(
            ArchitectureTest.kubeRunsNoSessions
                .evaluate(classes(RunsItsOwnLoop.class))
                .hasViolation())
        .isTrue();
  }

  @Test
  void runtimeHttpRule_rejectsACommandLineServingHttp() {
    assertThat(
            ArchitectureTest.runtimeServesNoHttp.evaluate(classes(ServesHttp.class)).hasViolation())
        .isTrue();
  }

  @Test
  void admissionRule_rejectsAdmittingAtLoad_acceptsTheSnapshotsOfBothSources() {
    assertThat(
            ArchitectureTest.admissionHappensOnlyAtSnapshot
                .evaluate(classes(AdmitsAtLoad.class))
                .getFailureReport()
                .getDetails())
        .hasSize(2)
        .allMatch(d -> d.contains("admission belongs to the snapshot of a cluster source"));
    assertThat(
            ArchitectureTest.admissionHappensOnlyAtSnapshot
                .evaluate(
                    classes(
                        dev.caldera.sim.EmbeddedCluster.class,
                        dev.caldera.kube.internal.ClusterCache.class))
                .getFailureReport()
                .getDetails())
        .isEmpty();
  }

  @Test
  void readersRule_rejectsAReaderThatTakesTheEmbeddedClustersState_acceptsTheLoader() {
    assertThat(
            ArchitectureTest.readersOfObjectsNeverAdmit
                .evaluate(classes(AdmitsWhileReading.class))
                .hasViolation())
        .isTrue();
    assertThat(
            ArchitectureTest.readersOfObjectsNeverAdmit
                .evaluate(
                    classes(
                        dev.caldera.sim.ScenarioLoader.class,
                        dev.caldera.sim.internal.StateBuilder.class,
                        dev.caldera.sim.internal.live.ManifestDirectory.class))
                .hasViolation())
        .isFalse();
  }
}
