package shaper.transcode.ir;

/** Who speaks a turn. {@link #SYSTEM} and {@link #DEVELOPER} form the system channel. */
public enum Role {
    SYSTEM, DEVELOPER, USER, ASSISTANT;

    public boolean systemChannel() {
        return this == SYSTEM || this == DEVELOPER;
    }
}
