/**
 * How the proxy's few periodic workers wait: {@link shaper.idle.Ticker} ticks while there is work
 * to look at and sleeps, at no cost to the request path, while there is none.
 */
package shaper.idle;
