package shaper.proxy.client;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A request body as the client hands it to {@link UpstreamClient#send}: its length (-1 for chunked
 * transfer coding), whether it can be sent again (bytes in memory), and how to write it. A write
 * that fails on the source's side throws whatever the source throws; the connection is closed
 * before it propagates.
 */
public interface OutgoingBody {
    long length();

    boolean replayable();

    void writeTo(OutputStream out) throws IOException;

    /** No body: no {@code Content-Length}, no {@code Transfer-Encoding}. */
    OutgoingBody NONE = new OutgoingBody() {
        @Override
        public long length() {
            return 0;
        }

        @Override
        public boolean replayable() {
            return true;
        }

        @Override
        public void writeTo(OutputStream out) {
        }
    };
}
