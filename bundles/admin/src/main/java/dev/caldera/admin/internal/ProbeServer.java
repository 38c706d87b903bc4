package dev.caldera.admin.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * The probes, {@code GET /healthz} and {@code GET /readyz}, on a listener of their own with their
 * own few threads: clients that hold the admin API's connections (slow, idle or many) cannot delay
 * the kubelet's probes, which would get a healthy scheduler restarted. The same answers as on the
 * admin port.
 */
public final class ProbeServer implements AutoCloseable {

  /** Probes are answered in microseconds; a few threads outlast a few stray slow clients. */
  static final int THREADS = 4;

  private final AdminBackend backend;
  private final HttpServer server;
  private final ExecutorService executor;

  /**
   * Binds {@code address} and starts serving.
   *
   * @throws IOException when the address cannot be bound
   */
  public ProbeServer(InetSocketAddress address, AdminBackend backend) throws IOException {
    this.backend = backend;
    AdminServer.configureJdkServer();
    this.server = HttpServer.create(address, 64);
    this.executor = AdminServer.handlerPool(THREADS, "caldera-probes");
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The bound address (the port chosen when 0 was asked). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getRawPath();
    String method = ex.getRequestMethod();
    AdminServer.Response r;
    if (!method.equals("GET") && !method.equals("HEAD")) {
      r =
          AdminServer.Response.json(
              405, Map.of("error", method + " " + path + " is not supported"));
    } else {
      r =
          switch (path) {
            case "/healthz" -> AdminServer.health(backend.monitor(), false);
            case "/readyz" -> AdminServer.health(backend.monitor(), true);
            default ->
                AdminServer.Response.json(
                    404,
                    Map.of(
                        "error",
                        "no such resource: "
                            + path
                            + " (this port serves /healthz and /readyz; the admin API has its"
                            + " own)"));
          };
    }
    AdminServer.respond(ex, r);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
