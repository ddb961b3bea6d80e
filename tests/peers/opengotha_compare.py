#!/usr/bin/env python3
"""kifu's standings against OpenGotha's own, table by table.

For each OpenGotha tournament file (given, or generated at random with
--random N), under several lists of placement criteria, after every round:
OpenGotha's order and values (its jar, through OpenGothaStandings.java in
this folder) against `kifu tournament import-opengotha` then
`kifu tournament standings --json`. Prints every difference and a count.

    python3 tests/peers/opengotha_compare.py --jar opengotha.jar \
        --kifu target/debug/kifu [--random 30] [FILE.xml ...]

Needs a JDK (javac, java) and OpenGotha 3.51's opengotha.jar
(lucvannier/opengotha, distribution/opengotha.jar). Exits 1 when a table
differs.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# Parameter sets OpenGotha needs to load a file (its sample files' values).
PARAMETERS = """<HandicapParameterSet hdBasedOnMMS="true" hdCeiling="9" hdCorrection="1" hdNoHdRankThreshold="1D"/>
<PlacementParameterSet><PlacementCriteria>CRITERIA</PlacementCriteria></PlacementParameterSet>
<PairingParameterSet paiBaAvoidDuplGame="500000000000000" paiBaBalanceWB="1000000" paiBaDeterministic="true" paiBaRandom="0" paiMaAdditionalPlacementCritSystem1="Rating" paiMaAdditionalPlacementCritSystem2="NULL" paiMaAvoidMixingCategories="0" paiMaCompensateDUDD="true" paiMaDUDDLowerMode="MID" paiMaDUDDUpperMode="MID" paiMaDUDDWeight="100000000" paiMaLastRoundForSeedSystem1="2" paiMaMaximizeSeeding="5000000" paiMaMinimizeScoreDifference="100000000000" paiMaSeedSystem1="SPLITANDRANDOM" paiMaSeedSystem2="SPLITANDSLIP" paiSeAvoidSameGeo="100000000000" paiSeBarThresholdActive="true" paiSeDefSecCrit="100000000000" paiSeMinimizeHandicap="0" paiSeNbWinsThresholdActive="false" paiSePreferMMSDiffRatherThanSameClub="3" paiSePreferMMSDiffRatherThanSameCountry="1" paiSeRankThreshold="1D" paiStandardNX1Factor="0.5"/>
<DPParameterSet displayClCol="true" displayCoCol="true" displayIndGamesInMatches="true" displayNPPlayers="false" displayNumCol="true" displayPlCol="true" gameFormat="full" playerSortType="name" showByePlayer="true" showNotFinallyRegisteredPlayers="true" showNotPairedPlayers="true" showNotParticipatingPlayers="false" showPlayerClub="true" showPlayerCountry="false" showPlayerGrade="true"/>
<PublishParameterSet exportToLocalFile="true" htmlAutoScroll="false" print="true"/>"""

RESULTS = ["RESULT_WHITEWINS", "RESULT_BLACKWINS", "RESULT_EQUAL", "RESULT_WHITEWINS_BYDEF",
           "RESULT_BLACKWINS_BYDEF", "RESULT_UNKNOWN", "RESULT_BOTHLOSE"]


def random_tournament(seed, players=(8, 18), rounds=(3, 6)):
    """An OpenGotha file: 8-18 players, 3-6 rounds, random pairings and results."""
    rnd = random.Random(seed)
    n, rounds = rnd.randint(*players), rnd.randint(*rounds)
    ranks = ["3D", "2D", "1D", "1K", "2K", "3K", "5K"]
    players = []
    for i in range(n):
        part = "".join("1" if rnd.random() > 0.08 else "0" for _ in range(rounds))
        players.append(("P%02d" % i, "Kim", rnd.choice(ranks), part + "1" * (20 - rounds)))
    key = lambda p: (p[0] + p[1]).upper()
    games, byes = [], []
    for r in range(1, rounds + 1):
        present = [p for p in players if p[3][r - 1] == "1"]
        rnd.shuffle(present)
        if len(present) % 2 == 1:
            b = present.pop()
            if rnd.random() < 0.7:
                byes.append((r, b))
        for t in range(len(present) // 2):
            w, b = present[2 * t], present[2 * t + 1]
            res = rnd.choices(RESULTS, [40, 40, 3, 4, 4, 3, 2])[0]
            h = rnd.choice([0, 0, 0, 1, 2]) if rnd.random() < 0.2 else 0
            games.append((r, t + 1, w, b, res, h))
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
           '<Tournament dataVersion="201" gothaVersion="351">', "<Players>"]
    for p in players:
        out.append('<Player agaId="" club="" country="NL" egfPin="" firstName="%s" name="%s" '
                   'participating="%s" rank="%s" rating="2000" registeringStatus="FIN" '
                   'smmsCorrection="0"/>' % (p[1], p[0], p[3], p[2]))
    out.append("</Players><Games>")
    for (r, t, w, b, res, h) in games:
        out.append('<Game blackPlayer="%s" handicap="%d" knownColor="true" result="%s" '
                   'roundNumber="%d" tableNumber="%d" whitePlayer="%s"/>'
                   % (key(b), h, res, r, t, key(w)))
    out.append("</Games><ByePlayers>")
    for (r, b) in byes:
        out.append('<ByePlayer player="%s" roundNumber="%d"/>' % (key(b), r))
    out.append("</ByePlayers><TournamentParameterSet>")
    out.append('<GeneralParameterSet basicTime="60" beginDate="2026-05-01" canByoYomiTime="300" '
               'complementaryTimeSystem="CANBYOYOMI" endDate="2026-05-02" '
               'genCountNotPlayedGamesAsHalfPoint="false" genMMBar="4D" genMMFloor="20K" '
               'genMMS2ValueAbsent="1" genMMS2ValueBye="2" genMMZero="30K" genNBW2ValueAbsent="0" '
               'genNBW2ValueBye="2" genRoundDownNBWMMS="true" komi="7" location="Leiden" '
               'name="Random %d" nbMovesCanTime="15" numberOfCategories="1" numberOfRounds="%d" '
               'shortName="r%d" size="19" stdByoYomiTime="30"/>' % (seed, rounds, seed))
    out.append(PARAMETERS.replace(
        "CRITERIA", "".join('<PlacementCriterion name="%s" number="%d"/>' % (c, i + 1)
                            for i, c in enumerate(["NBW", "DC", "SOSW"]))))
    out.append("</TournamentParameterSet></Tournament>")
    return "\n".join(out)


def with_criteria(xml, criteria, short):
    listed = "".join('<PlacementCriterion name="%s" number="%d"/>' % (c, i + 1)
                     for i, c in enumerate(criteria + ["NULL"] * (6 - len(criteria))))
    xml = re.sub(r"<PlacementCriteria>.*?</PlacementCriteria>",
                 "<PlacementCriteria>" + listed + "</PlacementCriteria>", xml, flags=re.S)
    if "<HandicapParameterSet" not in xml:
        i = xml.index("<PlacementParameterSet>")
        j = xml.index("</TournamentParameterSet>")
        xml = xml[:i] + PARAMETERS.replace("CRITERIA", listed) + xml[j:]
    return re.sub(r'shortName="[^"]*"', 'shortName="%s"' % short, xml)


def opengotha(java_cp, xml, rnd):
    out = subprocess.run(["java", "-Djava.awt.headless=true", "-cp", java_cp,
                          "OpenGothaStandings", xml, str(rnd)],
                         capture_output=True, text=True, timeout=300, check=True)
    rows = []
    for line in out.stdout.splitlines():
        f = line.split()
        rows.append((f[0].upper(), {k: int(v) for k, v in (kv.split("=") for kv in f[1:])}))
    return rows


def kifu_table(kifu, data, short, rnd):
    out = subprocess.run([kifu, "--data", data, "tournament", "standings", short,
                          "--after-round", str(rnd), "--json"], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr)
    return [(r["player"], r["values"]) for r in json.loads(out.stdout)["table"]]


# OpenGotha's short name → (kifu's name for a W or an M list, OpenGotha's coefficient).
def kifu_name(og_name, w):
    table = {"NBW": ("NBW", 2), "MMS": ("MMS", 2), "SOS": ("SOS" + w, 2),
             "SOS-1": ("SOS%s-1" % w, 2), "SOS-2": ("SOS%s-2" % w, 2),
             "SOSOS": ("SOSOS" + w, 2), "SODOS": ("SODOS" + w, 4), "CUSS": ("CUSS" + w, 2),
             "EXT": ("EXT", 2), "EXR": ("EXR", 2), "DC": ("DC", 1), "SDC": ("SDC", 1)}
    return table.get(og_name, (og_name, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jar", required=True)
    ap.add_argument("--kifu", required=True)
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--players", default="8-18", help="players of a random tournament, MIN-MAX")
    ap.add_argument("--rounds", default="3-6", help="rounds of a random tournament, MIN-MAX")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="og-compare-")
    subprocess.run(["javac", "-cp", a.jar, "-d", work,
                    os.path.join(HERE, "OpenGothaStandings.java")], check=True)
    java_cp = a.jar + os.pathsep + work
    key = os.path.join(work, "director")
    subprocess.run([a.kifu, "--data", os.path.join(work, "k"), "keygen", key],
                   check=True, capture_output=True)
    sources = [(f, open(f, encoding="utf-8", errors="replace").read()) for f in a.files]
    span = lambda t: tuple(int(x) for x in t.split("-"))
    sources += [("random %d" % s, random_tournament(s, span(a.players), span(a.rounds)))
                for s in range(1, a.random + 1)]
    tables = differing = 0
    for name, src in sources:
        rounds = int(re.search(r'numberOfRounds="(\d+)"', src).group(1))
        own = [c for c in re.findall(r'PlacementCriterion name="([\w-]+)"', src) if c != "NULL"]
        w = "M" if own[0] == "MMS" else "W"
        score = "MMS" if w == "M" else "NBW"
        lists = [own[:3], [score, "DC", "SOS" + w, "SOSOS" + w],
                 [score, "SDC", "SOS%s-1" % w, "CUSS" + w],
                 [score, "SOS%s-2" % w, "SODOS" + w, "EXT", "EXR"],
                 ["MMS", "DC", "SOSM", "SOSOSM"], ["NBW", "DC", "SDC", "SOSW"],
                 ["NBW", "SOSW", "DC"]]
        for li, criteria in enumerate(lists):
            w_of = "M" if criteria[0] == "MMS" else "W"
            short = "c%d" % li
            xml = os.path.join(work, "t.xml")
            open(xml, "w", encoding="utf-8").write(with_criteria(src, criteria, short))
            data = os.path.join(work, "d-%d-%d" % (len(sources), tables))
            subprocess.run([a.kifu, "--data", data, "tournament", "import-opengotha", xml,
                            "--key", key + ".key"], check=True, capture_output=True)
            for rnd in range(1, rounds + 1):
                tables += 1
                og = opengotha(java_cp, xml, rnd)
                k = kifu_table(a.kifu, data, short, rnd)
                same = [p for p, _ in og] == [p for p, _ in k]
                for (p, ov), (_, kv) in zip(og, k) if same else []:
                    for c, v in ov.items():
                        kn, coef = kifu_name(c, w_of)
                        if kv.get(kn) is None or kv[kn] * coef != v:
                            same = False
                            print("  %s %s: OpenGotha %s, kifu %s" % (p, kn, v / coef, kv.get(kn)))
                if not same:
                    differing += 1
                    print("%s %s after round %d differs" % (name, criteria, rnd))
                    print("  OpenGotha", [p for p, _ in og])
                    print("  kifu     ", [p for p, _ in k])
    print("tables compared %d, differing %d" % (tables, differing))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
