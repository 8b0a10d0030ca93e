package shaper.signal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/** Installs a handler for a named POSIX signal. */
public final class Signals {
    private Signals() {
    }

    /**
     * Calls {@code action} each time signal {@code name} ({@code "TERM"}, {@code "INT"}) arrives.
     *
     * @throws IllegalStateException when the signal cannot be caught here; the message names why
     */
    public static void handle(String name, Runnable action) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object proxy = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler},
                    (self, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            action.run();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(self);
                        case "equals" -> self == args[0];
                        default -> "SIG" + name + " handler";
                    });
            signal.getMethod("handle", signal, handler).invoke(null, signal.getConstructor(String.class).newInstance(name), proxy);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
            throw new IllegalStateException("cannot handle SIG" + name + ": " + cause, cause);
        }
    }
}
