package shaper.proxy;

import shaper.observe.ExchangeTrace;
import shaper.proxy.watch.ClientConnection;

/**
 * One exchange in flight, as every stage after intake takes it: what was asked, where its answer
 * goes, the connection it came on, what is being recorded of it and the server machinery it runs on.
 * The references never change; what they point at (the sink's commit state, the trace) belongs to
 * the exchange's thread.
 *
 * @param exchange what was asked
 * @param sink     where everything the client gets goes
 * @param client   the client's connection, watched while the request is silent
 * @param trace    the exchange's entry in the journal
 * @param server   the server-wide watches and threads the exchange uses
 */
record Carriage(Exchange exchange, ClientSink sink, ClientConnection client, ExchangeTrace trace, ServerParts server) {
}
