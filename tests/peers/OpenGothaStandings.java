// OpenGotha's own standings of a tournament file, for comparing kifu's
// with them: `java -cp opengotha.jar:. OpenGothaStandings FILE.xml ROUND`
// prints one line per player in OpenGotha's order, `NameFirstname` and
// each placement criterion's value as OpenGotha keeps it (scores x2).
// Built against OpenGotha 3.51.02's opengotha.jar (lucvannier/opengotha,
// distribution/opengotha.jar); used by tests/tournament_entry_cli.rs when
// KIFU_OPENGOTHA_JAR names that jar.
import info.vannier.gotha.*;
import java.io.File;
import java.util.*;

public class OpenGothaStandings {
    public static void main(String[] a) throws Exception {
        Tournament t = new Tournament();
        ExternalDocument.importTournamentFromXMLFile(new File(a[0]), t, true, true, true, false, false);
        int rn = Integer.parseInt(a[1]) - 1;
        PlacementParameterSet pps = t.getTournamentParameterSet().getPlacementParameterSet();
        ArrayList<ScoredPlayer> l = t.orderedScoredPlayersList(rn, pps);
        int[] crit = pps.getPlaCriteria();
        for (ScoredPlayer sp : l) {
            StringBuilder sb = new StringBuilder(sp.getName() + sp.getFirstName());
            for (int c : crit) {
                if (c == 0) continue;
                sb.append(" ").append(PlacementParameterSet.criterionShortName(c)).append("=").append(sp.getCritValue(c, rn));
            }
            System.out.println(sb);
        }
        System.exit(0);
    }
}
