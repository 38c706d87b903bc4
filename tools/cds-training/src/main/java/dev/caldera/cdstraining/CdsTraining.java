package dev.caldera.cdstraining;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The class data training: the build runs it once, in a JVM started with {@code
 * -XX:ArchiveClassesAtExit} on the distribution's own class path ({@code bin/caldera cds-training
 * JAR}, where {@link Launcher} loads it), to make the class data sharing archive {@code
 * lib/caldera.jsa} that bin/caldera starts the JVM with. It runs the short commands whose start-up
 * the archive is for, in this JVM, on the distribution's own demo scenario and policies, so every
 * class they load is in the archive. Then it runs {@code caldera run --kubeconfig} once, against a
 * {@link TrainingApiServer} on loopback (HTTPS, a token, watch events) until it has bound the
 * server's gangs, asks its admin API what a monitoring system and an operator ask ({@link
 * AdminTraining}), and links what the bundles loaded ({@link BundleClasses}). The JVM archives the
 * classes Felix's bundle loaders define too, and uses them when a bundle defines the same bytes
 * again: a start against a real cluster then maps most of fabric8, Jackson, TLS and the scheduler
 * instead of reading and verifying them. Output is discarded; a command that does not end as
 * expected fails the training (and the build) rather than leaving a silently thin archive.
 *
 * <p>Nothing of this ships: the distribution's command line is reached by reflection (this module
 * is built before it), and this jar is on the class path only of the training's JVM.
 */
public final class CdsTraining {

  private CdsTraining() {}

  private record Step(int expectedCode, List<String> args) {}

  /**
   * The longest the run against the training API server may take; it is stopped as soon as every
   * pod is bound. A fast machine binds in a second or two; the image's JVM of the other
   * architecture under an emulator (class-data-layer.sh) may need a minute.
   */
  private static final String KUBE_RUN_LIMIT = "180s";

  /** After the last bind, time for the session's events and status writes to go out. */
  private static final long SETTLE_MILLIS = 1_000;

  /**
   * One {@code caldera run}, against the training API server, and no run on the embedded cluster:
   * with Java 17 a dynamic archive keeps every copy of a class that two runs' bundle loaders
   * defined, and a start then takes one copy of a class and another of its superclass, which do not
   * fit, and loads both from the jar (about 340 classes of a start against a real cluster, with
   * both runs).
   */
  private static List<String> trainRun(
      Path home, TrainingTls tls, PrintStream discard, java.io.ByteArrayOutputStream printed) {
    Path work;
    try {
      work = Files.createTempDirectory("caldera-cds-training");
    } catch (IOException e) {
      return List.of("cannot make a directory for the training runs: " + e);
    }
    List<String> failures = new ArrayList<>();
    try (TrainingApiServer api = TrainingApiServer.start(home.resolve("conf/demo"), 3, tls)) {
      Path kubeconfig = work.resolve("kubeconfig");
      api.writeKubeconfig(kubeconfig);
      Path classLog = work.resolve("class-load.log");
      logClassLoads(classLog);
      List<String> args = new ArrayList<>(runArgs(KUBE_RUN_LIMIT, work.resolve("kube.log")));
      args.addAll(List.of("--kubeconfig", kubeconfig.toString()));
      List<String> adminFailures = java.util.Collections.synchronizedList(new ArrayList<>());
      Thread stopper = stopWhenBound(api, classLog, printed, adminFailures);
      try {
        failures.addAll(run(new Step(0, args), discard));
      } finally {
        stopper.interrupt();
      }
      failures.addAll(adminFailures);
      if (failures.isEmpty() && api.binds() < api.pods()) {
        failures.add(
            "caldera run --kubeconfig bound "
                + api.binds()
                + " of the training API server's "
                + api.pods()
                + " pods within "
                + KUBE_RUN_LIMIT);
      }
    } catch (IOException | RuntimeException e) {
      failures.add("the training API server: " + e.toString().lines().findFirst().orElse(""));
    }
    if (!failures.isEmpty()) {
      // Their output went nowhere; their logs are kept for whoever reads the build's failure.
      failures.add("the training runs' logs are in " + work);
      return failures;
    }
    deleteRecursively(work);
    return failures;
  }

  /**
   * Has this JVM log every class it loads, with its source, to {@code file} (jcmd's VM.log, asked
   * of the JVM itself): what {@link BundleClasses#link} reads.
   */
  private static void logClassLoads(Path file) {
    try {
      java.lang.management.ManagementFactory.getPlatformMBeanServer()
          .invoke(
              new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
              "vmLog",
              new Object[] {
                new String[] {"output=" + file, "what=class+load=info", "decorators=none"}
              },
              new String[] {String[].class.getName()});
    } catch (javax.management.JMException e) {
      throw new IllegalStateException("cannot log the classes this JVM loads: " + e, e);
    }
  }

  /**
   * A thread that stops the run once every pod of {@code api} is bound (and the writes settle),
   * after linking the classes its bundles loaded ({@link BundleClasses#link}).
   */
  private static Thread stopWhenBound(
      TrainingApiServer api,
      Path classLog,
      java.io.ByteArrayOutputStream printed,
      List<String> failures) {
    Thread t =
        new Thread(
            () -> {
              try {
                while (api.binds() < api.pods()) {
                  Thread.sleep(50);
                }
                Thread.sleep(SETTLE_MILLIS);
                try {
                  failures.addAll(AdminTraining.ask(printed.toString(StandardCharsets.UTF_8)));
                  @SuppressWarnings("unchecked")
                  Map<String, ClassLoader> loaders =
                      (Map<String, ClassLoader>)
                          call(
                              "dev.caldera.runtime.run.OsgiLauncher",
                              "bundleClassLoaders",
                              new Class<?>[0]);
                  BundleClasses.link(classLog, loaders);
                } finally {
                  call(
                      "dev.caldera.runtime.run.OsgiLauncher",
                      "stopRunning",
                      new Class<?>[] {String.class},
                      "the training API server's pods are bound: stopping");
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "caldera-cds-training-stop");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static List<String> runArgs(String duration, Path log) {
    return List.of(
        "run",
        "--duration",
        duration,
        "--admin-address",
        "127.0.0.1:0",
        "--probe-address",
        "127.0.0.1:0",
        "--status-interval",
        "0",
        "--log",
        log.toString());
  }

  /** Runs {@code step} in this JVM; its failure, if it did not end with the code expected. */
  private static List<String> run(Step step, PrintStream discard) {
    Object commandLine =
        call(
            "dev.caldera.runtime.CalderaCommand",
            "commandLine",
            new Class<?>[] {PrintStream.class, PrintStream.class},
            discard,
            discard);
    int code =
        (Integer)
            invoke(
                commandLine.getClass(),
                "execute",
                new Class<?>[] {String[].class},
                commandLine,
                (Object) step.args().toArray(String[]::new));
    return code == step.expectedCode()
        ? List.of()
        : List.of(
            "caldera "
                + String.join(" ", step.args())
                + " exited with "
                + code
                + ", expected "
                + step.expectedCode());
  }

  /** What {@code /api/jobs/NS/NAME} answers for a pending pod group, for {@link #trainWhy}. */
  private static final String JOB_ANSWER =
      "{\"job\":{\"podGroup\":\"ns/job\",\"queue\":\"q\",\"phase\":\"Pending\",\"minMember\":1,"
          + "\"waiting\":{\"podGroup\":\"ns/job\",\"queue\":\"q\",\"position\":2,"
          + "\"blocker\":{\"stage\":\"CARD_QUOTA\",\"action\":\"enqueue\",\"plugin\":\"capacity-card\","
          + "\"message\":\"m\",\"figures\":[{\"resource\":\"gpu\",\"requested\":2,"
          + "\"allocated\":1,\"limit\":2,\"limitName\":\"card quota\"}],\"nodeCounts\":{}},"
          + "\"lastTried\":\"2026-01-01T00:00:00Z\",\"since\":\"2026-01-01T00:00:00Z\"},"
          + "\"history\":[],\"tasks\":[{\"name\":\"job-0\",\"phase\":\"Pending\",\"node\":\"\","
          + "\"reason\":\"r\"}],\"evictions\":[]},\"ahead\":[\"ns/first\"]}";

  /**
   * {@code caldera why}'s own path ({@code WhyQuick}: the admin client, its HTTP connection, the
   * JSON tree and the text) against a loopback server that answers like the admin API.
   */
  private static List<String> trainWhy(PrintStream discard) {
    com.sun.net.httpserver.HttpServer server;
    try {
      server =
          com.sun.net.httpserver.HttpServer.create(
              new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      return List.of("cannot start the loopback server for why: " + e);
    }
    server.createContext(
        "/api/jobs/",
        ex -> {
          byte[] body = JOB_ANSWER.getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().set("Content-Type", "application/json");
          ex.sendResponseHeaders(200, body.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort();
      List<String> failures = new ArrayList<>();
      for (List<String> args :
          List.of(
              List.of("why", "--admin", url, "ns/job"),
              List.of("why", "--admin", url, "-o", "json", "ns/job"))) {
        java.util.OptionalInt code =
            (java.util.OptionalInt)
                call(
                    "dev.caldera.runtime.WhyQuick",
                    "run",
                    new Class<?>[] {String[].class, PrintStream.class, PrintStream.class},
                    args.toArray(String[]::new),
                    discard,
                    discard);
        if (code.isEmpty() || code.getAsInt() != 0) {
          failures.add("caldera " + String.join(" ", args) + " exited with " + code);
        }
      }
      return failures;
    } finally {
      server.stop(0);
    }
  }

  /**
   * Runs the training with {@code caldera.home} (the system property bin/caldera sets) as the
   * distribution.
   *
   * @return 0, or 1 after saying on stderr what failed
   */
  public static int train() {
    String homeProperty = System.getProperty("caldera.home");
    if (homeProperty == null || homeProperty.isEmpty()) {
      System.err.println("error: cds-training: caldera.home is not set (run it with bin/caldera)");
      return 1;
    }
    Path home = Path.of(homeProperty);
    String demo = home.resolve("scenarios/demo.yaml").toString();
    String policies = home.resolve("policies").toString();
    List<Step> steps =
        List.of(
            new Step(0, List.of("--help")),
            new Step(0, List.of("simulate", "--check", demo)),
            new Step(0, List.of("simulate", demo)),
            new Step(2, List.of("simulate", home.resolve("no-such-scenario.yaml").toString())),
            new Step(0, List.of("policy", "check", policies)),
            new Step(0, List.of("bench", "--nodes", "20", "--pods", "200", "-o", "json")));
    List<String> failures = new ArrayList<>();
    PrintStream discard =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    for (Step step : steps) {
      failures.addAll(run(step, discard));
    }
    failures.addAll(trainWhy(discard));
    // One authority and serving key for both servers: an emulated JVM (the image's other
    // architecture) takes seconds for each RSA key.
    TrainingTls tls;
    try {
      tls = TrainingTls.create();
    } catch (java.security.GeneralSecurityException e) {
      failures.add("cannot make the training's certificates: " + e);
      failures.forEach(f -> System.err.println("error: cds-training: " + f));
      return 1;
    }
    try {
      failures.addAll(Http2Training.train(tls));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failures.add("interrupted");
    }
    // caldera run also reports on the process's own streams (its status and the cluster's
    // progress), which the build's log does not need.
    PrintStream out = System.out;
    PrintStream err = System.err;
    // What the bundles print (the admin API's address among it) is read, not shown.
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    System.setErr(discard);
    try {
      failures.addAll(trainRun(home, tls, discard, printed));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    failures.forEach(f -> System.err.println("error: cds-training: " + f));
    return failures.isEmpty() ? 0 : 1;
  }

  /** Calls the static {@code method} of the command line's {@code className}. */
  private static Object call(String className, String method, Class<?>[] types, Object... args) {
    Class<?> type;
    try {
      type = Class.forName(className, true, CdsTraining.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(className + " is not on the class path: " + e, e);
    }
    return invoke(type, method, types, null, args);
  }

  private static Object invoke(
      Class<?> type, String method, Class<?>[] types, Object target, Object... args) {
    try {
      Method m = type.getMethod(method, types);
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(type.getName() + "." + method + ": " + e.getCause(), e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          type.getName() + "." + method + " is not what the training expects: " + e, e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  // a temporary directory: what is left is the system's to clear
                }
              });
    } catch (IOException e) {
      // as above
    }
  }
}
