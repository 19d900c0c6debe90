import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.ThreadLocalRandom;

import game.Game;
import other.GameLoader;
import other.context.Context;
import other.trial.Trial;

/**
 * Uniformly random playouts of one Ludii game, as Ludii's own benchmark
 * plays them (game.playout with no AI), timed by this thread's CPU time:
 * a warm-up for the JIT, then a measured round. Arguments: the .lud file,
 * the ruleset ("" for the game's default), warm-up seconds, measured
 * seconds. Prints one JSON line: games, moves (without the start's
 * placements, as Ludii's numberRealMoves counts them), CPU seconds.
 * Compiled by scripts/benchmarks.py against a Ludii build outside the
 * repository.
 */
public final class LudiiPlayouts {
    public static void main(final String[] args) {
        final Game game = GameLoader.loadGameFromFile(new File(args[0]), args[1]);
        final double warmUp = Double.parseDouble(args[2]);
        final double measured = Double.parseDouble(args[3]);
        final ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        play(game, warmUp, bean);
        final long[] round = play(game, measured, bean);
        System.out.printf("{\"games\":%d,\"moves\":%d,\"cpuSeconds\":%.4f}%n", round[0], round[1], round[2] / 1e9);
    }

    /** Games, moves and CPU nanoseconds of random playouts for `seconds` of CPU. */
    private static long[] play(final Game game, final double seconds, final ThreadMXBean bean) {
        final long start = bean.getCurrentThreadCpuTime();
        final long limit = (long) (seconds * 1e9);
        long games = 0;
        long moves = 0;
        long spent = 0;
        while (spent < limit) {
            final Context context = new Context(game, new Trial(game));
            game.start(context);
            game.playout(context, null, 1.0, null, 0, -1, ThreadLocalRandom.current());
            games++;
            moves += context.trial().numberRealMoves();
            spent = bean.getCurrentThreadCpuTime() - start;
        }
        return new long[] {games, moves, spent};
    }
}
