package shaper.limit;

import java.time.Duration;
import java.util.PriorityQueue;

/**
 * A {@link TimeSource} whose time moves only in {@link #advance(Duration)}; due tasks run on the
 * advancing thread, in due order, each seeing the clock at its due time. Thread-safe. Tasks run
 * without this object's monitor held, so they may take other locks and schedule more tasks.
 */
public final class ManualTimeSource implements TimeSource {
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long now = 1_000_000_000L;
    private long sequence;

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable task) {
        Task t = new Task(now + delay.toNanos(), sequence++, task);
        tasks.add(t);
        return () -> {
            synchronized (this) {
                tasks.remove(t);
            }
        };
    }

    /** Moves time forward by {@code d}, running every task that falls due. */
    public void advance(Duration d) {
        long target;
        synchronized (this) {
            target = now + d.toNanos();
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.peek();
                if (next == null || next.due > target) {
                    now = target;
                    return;
                }
                tasks.poll();
                now = Math.max(now, next.due);
            }
            next.task.run();
        }
    }

    /**
     * Moves time to the earliest pending task's due time, running it (and any due with it): the clock
     * jumps from event to event as wall time would pass between them, without the waiting.
     *
     * @return false when no task is pending (time does not move)
     */
    public boolean advanceToNextTask() {
        long target;
        synchronized (this) {
            Task next = tasks.peek();
            if (next == null) {
                return false;
            }
            target = Math.max(now, next.due);
        }
        advance(Duration.ofNanos(target - nanoTime()));
        return true;
    }

    /**
     * Whether a task is pending that falls due exactly {@code d} from now. A test that drives a running
     * proxy waits for this before it moves time: a thread about to wait {@code d} (a queue timeout, a
     * hold) has set its alarm, and other timers of other lengths cannot be mistaken for it.
     */
    public synchronized boolean hasTaskDueIn(Duration d) {
        long due = now + d.toNanos();
        return tasks.stream().anyMatch(t -> t.due == due);
    }

    /** Tasks scheduled and not yet run or cancelled. */
    public synchronized int pending() {
        return tasks.size();
    }

    private record Task(long due, long seq, Runnable task) implements Comparable<Task> {
        @Override
        public int compareTo(Task o) {
            int c = Long.compare(due, o.due);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
