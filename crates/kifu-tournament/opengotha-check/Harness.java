// Prints OpenGotha's own standings of a tournament file after a round: one
// line per player in OpenGotha's order, "KEY PLACE" then the raw integer
// value of NBW MMS CUSSW CUSSM SOSW SOSW-1 SOSW-2 SODOSW SOSOSW SOSM SOSM-1
// SOSM-2 SODOSM SOSOSM EXT EXR DC SDC (x2, SODOS x4, DC/SDC x1).
// Usage: java -cp classes:lib/jhall.jar info.vannier.gotha.Harness FILE ROUND
package info.vannier.gotha;
import java.io.File;
import java.util.ArrayList;
public class Harness {
    public static void main(String[] args) throws Exception {
        Tournament t = new Tournament();
        ExternalDocument.importTournamentFromXMLFile(new File(args[0]), t, true, true, true, false, false);
        int round = Integer.parseInt(args[1]) - 1;
        PlacementParameterSet pps = t.getTournamentParameterSet().getPlacementParameterSet();
        ArrayList<ScoredPlayer> l = t.orderedScoredPlayersList(round, pps);
        String[] pos = ScoredPlayer.positionStrings(l, round, t.getTournamentParameterSet());
        int[] crits = {100, 200, 150, 250, 110, 111, 112, 120, 130, 210, 211, 212, 220, 230, 501, 502, 602, 601};
        int last = 0;
        for (int i = 0; i < l.size(); i++) {
            ScoredPlayer sp = l.get(i);
            String p = pos[i].trim();
            if (!p.isEmpty()) last = Integer.parseInt(p);
            StringBuilder sb = new StringBuilder(sp.getKeyString() + " " + last);
            for (int c : crits) sb.append(" ").append(sp.getCritValue(c, round));
            System.out.println(sb);
        }
        System.exit(0);
    }
}
