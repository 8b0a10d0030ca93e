/**
 * The listener: Helidon SE WebServer wiring, the reserved health route, and the mount table that
 * sends each path to its provider. Startup validates everything before the port is bound.
 */
package shaper.server;
