package dev.caldera.runtime.run;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Handles SIGTERM and SIGINT by calling a callback instead of exiting, and SIGHUP (which would end
 * the JVM with 129 without a word) by calling another that only logs it, so that {@code caldera
 * run} can finish the session in flight and exit with 0. Uses the JDK's {@code sun.misc.Signal}
 * (module {@code jdk.unsupported}) reflectively, because javac cannot be told to accept it without
 * a warning; where it is missing, a shutdown hook does the same work (the exit code is then the
 * JVM's).
 */
final class Signals {

  private Signals() {}

  /**
   * Calls {@code onSignal} with the signal's name on SIGTERM and SIGINT, and {@code onHangUp} on
   * SIGHUP.
   *
   * @param onShutdownHook used instead when signals cannot be handled: runs in a shutdown hook and
   *     must wait for the work to end
   */
  static void handle(
      java.util.function.Consumer<String> onSignal, Runnable onHangUp, Runnable onShutdownHook) {
    try {
      Class<?> signalType = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      Method handle = signalType.getMethod("handle", signalType, handlerType);
      Method getName = signalType.getMethod("getName");
      Object handler =
          Proxy.newProxyInstance(
              Signals.class.getClassLoader(),
              new Class<?>[] {handlerType},
              (proxy, method, args) -> {
                switch (method.getName()) {
                  case "handle" -> {
                    String name = "SIG" + getName.invoke(args[0]);
                    if (name.equals("SIGHUP")) {
                      onHangUp.run();
                    } else {
                      onSignal.accept(name);
                    }
                    return null;
                  }
                  case "hashCode" -> {
                    return System.identityHashCode(proxy);
                  }
                  case "equals" -> {
                    return proxy == args[0];
                  }
                  case "toString" -> {
                    return "caldera signal handler";
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                }
              });
      for (String name : new String[] {"TERM", "INT"}) {
        Object signal = signalType.getConstructor(String.class).newInstance(name);
        handle.invoke(null, signal, handler);
      }
      try {
        handle.invoke(null, signalType.getConstructor(String.class).newInstance("HUP"), handler);
      } catch (ReflectiveOperationException | RuntimeException e) {
        // No SIGHUP here (or the JVM keeps it): nothing to ignore.
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      Runtime.getRuntime().addShutdownHook(new Thread(onShutdownHook, "caldera-shutdown"));
    }
  }
}
