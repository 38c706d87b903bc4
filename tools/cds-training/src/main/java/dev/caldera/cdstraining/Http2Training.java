package dev.caldera.cdstraining;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * The JDK HTTP client's HTTP/2 over TLS, which fabric8's client uses with a real kube-apiserver
 * (ALPN {@code h2}): the JDK's HTTPS server, under the {@link TrainingApiServer}, speaks HTTP/1.1
 * only. The client's HTTP/2 classes are the JDK's own, so any request of this JVM trains them: a
 * few requests to a loopback server that negotiates {@code h2} and answers every stream {@code 200
 * {}}, the least of HTTP/2 (RFC 9113) a client accepts: its settings, an acknowledgement of the
 * client's, and per request, once its stream ends, a header block ({@code :status 200}, HPACK's
 * static entry 8) and the body.
 */
final class Http2Training {

  private Http2Training() {}

  private static final int REQUESTS = 3;
  private static final int DATA = 0x0;
  private static final int HEADERS = 0x1;
  private static final int SETTINGS = 0x4;
  private static final int GOAWAY = 0x7;
  private static final int END_STREAM = 0x1;
  private static final int ACK = 0x1;
  private static final int END_HEADERS = 0x4;
  private static final byte[] BODY = "{}".getBytes(StandardCharsets.US_ASCII);

  /**
   * Sends {@link #REQUESTS} requests over one HTTP/2 connection to a server with the certificates
   * of {@code tls}.
   *
   * @return what failed
   */
  static List<String> train(TrainingTls tls) throws InterruptedException {
    List<String> failures = new ArrayList<>();
    try (SSLServerSocket listener =
        (SSLServerSocket)
            tls.serverContext()
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> serve(listener, tls), "caldera-cds-training-h2");
      server.setDaemon(true);
      server.start();
      HttpClient http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_2)
              .sslContext(TrainingApiServer.trusting(tls))
              .connectTimeout(Duration.ofSeconds(10))
              .build();
      for (int i = 0; i < REQUESTS; i++) {
        HttpRequest.Builder request =
            HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + listener.getLocalPort() + "/api/v1/pods"))
                .timeout(Duration.ofSeconds(30));
        // A GET, then writes with a body, as a bind is.
        if (i > 0) {
          request.POST(HttpRequest.BodyPublishers.ofByteArray(BODY));
        }
        HttpResponse<String> response =
            http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.version() != HttpClient.Version.HTTP_2 || response.statusCode() != 200) {
          failures.add("HTTP/2: " + response.version() + " " + response.statusCode());
        }
      }
    } catch (IOException e) {
      failures.add("HTTP/2: " + e);
    }
    return failures;
  }

  private static void serve(SSLServerSocket listener, TrainingTls tls) {
    try (SSLSocket socket = (SSLSocket) listener.accept()) {
      SSLParameters parameters = tls.serverParameters();
      parameters.setApplicationProtocols(new String[] {"h2"});
      socket.setSSLParameters(parameters);
      DataInputStream in = new DataInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      in.readFully(new byte[24]); // the client's preface, PRI * HTTP/2.0 ...
      frame(out, SETTINGS, 0, 0, new byte[0]);
      while (true) {
        int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        in.readFully(new byte[length]);
        if (type == SETTINGS && (flags & ACK) == 0) {
          frame(out, SETTINGS, ACK, 0, new byte[0]);
        } else if ((type == HEADERS || type == DATA) && (flags & END_STREAM) != 0) {
          // the request is complete: its answer
          frame(out, HEADERS, END_HEADERS, stream, new byte[] {(byte) 0x88});
          frame(out, DATA, END_STREAM, stream, BODY);
        } else if (type == GOAWAY) {
          return;
        }
      }
    } catch (IOException e) {
      // the client is done (or failed, which it reports)
    }
  }

  private static void frame(OutputStream out, int type, int flags, int stream, byte[] payload)
      throws IOException {
    byte[] header = {
      (byte) (payload.length >>> 16),
      (byte) (payload.length >>> 8),
      (byte) payload.length,
      (byte) type,
      (byte) flags,
      (byte) (stream >>> 24),
      (byte) (stream >>> 16),
      (byte) (stream >>> 8),
      (byte) stream
    };
    synchronized (out) {
      out.write(header);
      out.write(payload);
      out.flush();
    }
  }
}
