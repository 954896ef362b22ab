// Plays games of Geronimoo's DominionSimulator headless, for bench/dominion_geronimoo.py.
//
// Compiled by that bench at run time against the simulator's classes (given by a path;
// none of the simulator's code is part of this project).  It loads the simulator's own
// bots (DomBots.xml, through its XMLHandler), copies the named bot once per seat the way
// its GUI does, and runs the loop of DomEngine.startSimulation (the GUI's "Start" button)
// without the GUI: per game a DomGame on the board of the previous game, runSimulation,
// determineWinners, board reset, the seats shuffled; the in-game log off
// (DomEngine.haveToLog = false), as the GUI runs a simulation of many games.  The games
// report their phases to an engine object (DomEngine.setStatus); DomEngine's only
// constructor opens the GUI's window, so the engine object is allocated without it.
//
// Usage: java -cp <driver dir>:<simulator classpath> GeronimooDriver BOT SEATS GAMES WARMUP
// Prints one line: games=N cpu_s=S process_cpu_s=P wall_s=W warmup_games=K
// (after the warm-up games; cpu_s: CPU time of the simulating thread, ThreadMXBean;
// process_cpu_s: of the whole JVM over the same games, its garbage collector and JIT
// compiler threads included.)

import be.aga.dominionSimulator.DomBoard;
import be.aga.dominionSimulator.DomEngine;
import be.aga.dominionSimulator.DomGame;
import be.aga.dominionSimulator.DomPlayer;
import be.aga.dominionSimulator.XMLHandler;
import be.aga.dominionSimulator.stats.StatsManager;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import org.xml.sax.InputSource;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.XMLReaderFactory;

public final class GeronimooDriver {
    private GeronimooDriver() {}

    static ArrayList<DomPlayer> loadBots() throws Exception {
        InputStream in = DomEngine.class.getResourceAsStream("DomBots.xml");
        if (in == null) {
            throw new IllegalStateException("DomBots.xml not found next to DomEngine's classes");
        }
        XMLHandler handler = new XMLHandler();
        @SuppressWarnings("deprecation")
        XMLReader reader = XMLReaderFactory.createXMLReader();
        reader.setContentHandler(handler);
        reader.parse(new InputSource(in));
        return handler.getBots();
    }

    /** A DomEngine without its GUI (its constructor opens a window): its fields empty. */
    static DomEngine headlessEngine() throws Exception {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field field = unsafeClass.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        Object unsafe = field.get(null);
        return (DomEngine) unsafeClass.getMethod("allocateInstance", Class.class)
                .invoke(unsafe, DomEngine.class);
    }

    static void play(DomEngine engine, ArrayList<DomPlayer> seats, int games) {
        DomBoard board = null;
        StatsManager.resetCurrentSeries();
        for (int i = 0; i < games; i++) {
            Collections.shuffle(seats);
            DomEngine.haveToLog = false;
            DomGame game = new DomGame(board, seats, engine);
            game.runSimulation();
            game.determineWinners();
            board = game.getBoard();
            board.reset();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: GeronimooDriver BOT SEATS GAMES WARMUP");
            System.exit(2);
        }
        String name = args[0];
        int seats = Integer.parseInt(args[1]);
        int games = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        DomPlayer bot = null;
        for (DomPlayer candidate : loadBots()) {
            if (candidate.toString().equals(name)) {
                bot = candidate;
            }
        }
        if (bot == null) {
            System.err.println("no bot named " + name + " in DomBots.xml");
            System.exit(3);
        }
        ArrayList<DomPlayer> players = new ArrayList<>();
        for (int s = 1; s <= seats; s++) {
            players.add(bot.getCopy(name + "(Plr " + s + ")"));
        }
        DomEngine engine = headlessEngine();
        play(engine, players, warmup); // the JIT warmed up, as in a GUI session's later runs
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean();
        long process0 = os.getProcessCpuTime();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        play(engine, players, games);
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        long process = os.getProcessCpuTime() - process0;
        long wall = System.nanoTime() - wall0;
        System.out.println("games=" + games + " cpu_s=" + (cpu / 1e9) + " process_cpu_s="
                + (process / 1e9) + " wall_s=" + (wall / 1e9) + " warmup_games=" + warmup);
    }
}
