/**
 * Catchable POSIX signals ({@code SIGTERM}, {@code SIGINT}) for the proxy and the launcher. The
 * JDK's only hook is {@code sun.misc.Signal} (module {@code jdk.unsupported}); it is reached
 * reflectively so builds stay free of internal-API warnings. A handler replaces the JVM's default
 * action (exit through the shutdown hooks), so the caller decides when and with which code to exit.
 * Handlers run on a JVM signal thread: they must hand work off rather than block.
 */
package shaper.signal;
