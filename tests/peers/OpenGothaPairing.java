// OpenGotha's own draw of a round, for comparing kifu's with it:
// `java -cp opengotha.jar:. OpenGothaPairing FILE.xml ROUND [PAIRS]`
// pairs round ROUND (from 1) of the tournament file with OpenGotha's
// default pairing and handicap settings for its system (McMahon when MMS
// is the first placement criterion, Swiss otherwise), taking the steps of
// its pairing window's "Pair" with every pairable player: the players
// listed by score, the bye, the matching, the table numbers. It prints
//   bye KEY            (or "bye -")
//   table T WHITE BLACK HANDICAP     one line per board, T from 1
//   cost opengotha N   the total of OpenGotha's own pairing costs
//   cost given N       with PAIRS (lines "KEY KEY"): the same total for
//                      those pairs, each cost taken in the list's order
// Built against OpenGotha 3.51.02's opengotha.jar (lucvannier/opengotha,
// distribution/opengotha.jar); used by crates/kifu-pairing/tests/opengotha.rs
// when KIFU_OPENGOTHA_JAR names that jar. The pairing costs are read
// through reflection (`Tournament.costValue` is private).
import info.vannier.gotha.*;
import java.io.*;
import java.lang.reflect.*;
import java.nio.file.*;
import java.util.*;

public class OpenGothaPairing {
    public static void main(String[] a) throws Exception {
        // OpenGotha leaves threads behind: end the program on any failure.
        try {
            draw(a);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    static void draw(String[] a) throws Exception {
        java.util.logging.LogManager.getLogManager().reset();
        Tournament t = new Tournament();
        ExternalDocument.importTournamentFromXMLFile(new File(a[0]), t, true, true, true, false, false);
        int rn = Integer.parseInt(a[1]) - 1;
        TournamentParameterSet tps = t.getTournamentParameterSet();
        PlacementParameterSet pps = tps.getPlacementParameterSet();
        if (tps.tournamentType() == TournamentParameterSet.TYPE_MCMAHON) {
            tps.getPairingParameterSet().initForMM();
            tps.getHandicapParameterSet().initForMM();
        } else {
            tps.getPairingParameterSet().initForSwiss();
            tps.getHandicapParameterSet().initForSwiss();
        }
        // The scores are filled once, as when the pairing window opens,
        // strictly after the file was read (OpenGotha refills only when
        // the tournament changed in an earlier millisecond).
        Thread.sleep(20);
        ArrayList<ScoredPlayer> ordered = t.orderedScoredPlayersList(rn - 1, pps);
        HashSet<String> busy = new HashSet<>();
        for (Game g : t.gamesList(rn)) {
            busy.add(g.getWhitePlayer().getKeyString());
            busy.add(g.getBlackPlayer().getKeyString());
        }
        if (t.getByePlayer(rn) != null) busy.add(t.getByePlayer(rn).getKeyString());
        ArrayList<Player> list = new ArrayList<>();
        for (ScoredPlayer sp : ordered) {
            Player p = t.getPlayerByKeyString(sp.getKeyString());
            if (p.getRegisteringStatus().equals("FIN") && p.getParticipating()[rn]
                    && !busy.contains(p.getKeyString())) {
                list.add(p);
            }
        }
        if (list.size() % 2 == 1) {
            t.chooseAByePlayer(list, rn);
            Player bye = t.getByePlayer(rn);
            list.removeIf(p -> p.hasSameKeyString(bye));
            System.out.println("bye " + bye.getKeyString());
        } else {
            System.out.println("bye -");
        }
        ArrayList<Game> games = t.makeAutomaticPairing(list, rn);

        // Costs, while the pairing information of this round is in place.
        Method cost = Tournament.class.getDeclaredMethod("costValue",
                ScoredPlayer.class, ScoredPlayer.class, int.class, ArrayList.class);
        cost.setAccessible(true);
        Field scored = Tournament.class.getDeclaredField("hmScoredPlayers");
        scored.setAccessible(true);
        @SuppressWarnings("unchecked")
        HashMap<String, ScoredPlayer> hm = (HashMap<String, ScoredPlayer>) scored.get(t);
        ArrayList<Game> previous = t.gamesListBefore(rn);
        HashMap<String, Integer> position = new HashMap<>();
        for (int i = 0; i < list.size(); i++) position.put(list.get(i).getKeyString(), i);
        long own = 0;
        for (Game g : games) {
            own += pairCost(cost, t, hm, position, previous, rn,
                    g.getWhitePlayer().getKeyString(), g.getBlackPlayer().getKeyString());
        }
        Long given = null;
        if (a.length > 2) {
            given = 0L;
            for (String line : Files.readAllLines(Paths.get(a[2]))) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 2) given += pairCost(cost, t, hm, position, previous, rn, f[0], f[1]);
            }
        }

        // Table numbers as the pairing window gives them, then renumbered.
        HashSet<Integer> used = new HashSet<>();
        for (Game g : t.gamesList(rn)) used.add(g.getTableNumber());
        int tn = 0;
        for (Game g : games) {
            while (used.contains(tn)) tn++;
            g.setTableNumber(tn++);
        }
        t.renumberTablesByBestScoreThenRating(rn, games);
        games.sort(Comparator.comparingInt(Game::getTableNumber));
        for (Game g : games) {
            System.out.println("table " + (g.getTableNumber() + 1) + " " + g.getWhitePlayer().getKeyString()
                    + " " + g.getBlackPlayer().getKeyString() + " " + g.getHandicap());
        }
        System.out.println("cost opengotha " + own);
        if (given != null) System.out.println("cost given " + given);
    }

    static long pairCost(Method cost, Tournament t, HashMap<String, ScoredPlayer> hm,
            HashMap<String, Integer> position, ArrayList<Game> previous, int rn, String a, String b)
            throws Exception {
        int pa = position.getOrDefault(a, Integer.MAX_VALUE);
        int pb = position.getOrDefault(b, Integer.MAX_VALUE);
        String first = pa <= pb ? a : b;
        String second = pa <= pb ? b : a;
        return (Long) cost.invoke(t, hm.get(first), hm.get(second), rn, previous);
    }
}
