"""Writes a random OpenGotha tournament file; prints its number of rounds.

Usage: random_tournament.py SEED OUT.xml (needs /tmp/og/tps_template.xml, see README)."""
import random, sys
def gen(seed, path):
    R=random.Random(seed)
    n=R.randint(4,12); rounds=R.randint(1,5)
    ranks=[R.choice(['5k','3k','2k','1k','1d','2d','3d','5d','12k','25k']) for _ in range(n)]
    names=[f"N{i}" for i in range(n)]; firsts=[f"F{chr(65+i)}" for i in range(n)]
    keys=[(names[i]+firsts[i]).upper() for i in range(n)]
    part=[['1']*20 for _ in range(n)]
    games=[]; byes=[]
    results=['RESULT_WHITEWINS','RESULT_BLACKWINS','RESULT_EQUAL','RESULT_BOTHWIN','RESULT_BOTHLOSE','RESULT_UNKNOWN']
    for r in range(1,rounds+1):
        players=list(range(n)); R.shuffle(players)
        # some absent
        absent=[p for p in players if R.random()<0.12]
        for p in absent: part[p][r-1]='0'
        avail=[p for p in players if p not in absent]
        if len(avail)%2==1:
            b=avail.pop()
            if R.random()<0.8: byes.append((r,b))
        # sometimes leave a pair unpaired
        t=1
        for i in range(0,len(avail)-1,2):
            if R.random()<0.08: continue
            w,b=avail[i],avail[i+1]
            res=R.choices(results,weights=[40,40,6,3,3,3])[0]
            if res!='RESULT_UNKNOWN' and R.random()<0.1: res+='_BYDEF'
            h=R.choice([0,0,0,0,1,2,3])
            games.append((r,t,keys[w],keys[b],h,res)); t+=1
    crit_sets=[['MMS','SOSM','SOSOSM'],['MMS','SOSM','DC','SOSOSM'],['NBW','SOSW','SOSOSW'],['NBW','SDC','SOSW'],['MMS','DC','SOSM-1','SODOSM'],['NBW','SOSW-2','CUSSW','EXT','EXR'],['MMS','SOSM-2','CUSSM','SODOSW','DC'],['NBW','DC','SOSW-1']]
    crits=R.choice(crit_sets)
    gps=dict(genMMBar=R.choice(['4D','2D','1D','9D']),genMMFloor=R.choice(['20K','10K','5K']),
             genNBW2ValueBye=R.choice([0,1,2]),genMMS2ValueBye=R.choice([0,1,2]),genNBW2ValueAbsent=R.choice([0,1,2]),genMMS2ValueAbsent=R.choice([0,1,2]),
             genRoundDownNBWMMS=R.choice(['true','false']),genCountNotPlayedGamesAsHalfPoint=R.choice(['true','false','false']))
    tps=open('/tmp/og/tps_template.xml').read()
    import re
    ga=' '.join(f'{k}="{v}"' for k,v in gps.items())
    tps=re.sub(r'<GeneralParameterSet [^>]*/>',f'<GeneralParameterSet basicTime="60" beginDate="2026-05-01" endDate="2026-05-02" komi="7.5" location="X" name="Rand{seed}" shortName="rand{seed}" numberOfRounds="{rounds}" numberOfCategories="1" size="19" complementaryTimeSystem="CANBYOYOMI" canByoYomiTime="300" nbMovesCanTime="15" genMMZero="30K" {ga}/>',tps)
    pc=''.join(f'<PlacementCriterion name="{c}" number="{i+1}"/>\n' for i,c in enumerate(crits))
    tps=re.sub(r'<PlacementCriteria>.*?</PlacementCriteria>',f'<PlacementCriteria>\n{pc}</PlacementCriteria>',tps,flags=re.S)
    out=['<?xml version="1.0" encoding="UTF-8" standalone="no"?>','<Tournament dataVersion="201" gothaVersion="351">','<Players>']
    for i in range(n):
        out.append(f'<Player agaId="" club="C{i%3}" country="FR" egfPin="" ffgLicence="" ffgLicenceStatus="" firstName="{firsts[i]}" grade="{ranks[i].upper()}" name="{names[i]}" participating="{"".join(part[i])}" rank="{ranks[i].upper()}" rating="1000" ratingOrigin="" registeringStatus="FIN" smmsCorrection="{R.choice([0,0,0,1,-1])}"/>')
    out.append('</Players>'); out.append('<Games>')
    for (r,t,w,b,h,res) in games:
        out.append(f'<Game blackPlayer="{b}" handicap="{h}" knownColor="true" result="{res}" roundNumber="{r}" tableNumber="{t}" whitePlayer="{w}"/>')
    out.append('</Games>')
    if byes:
        out.append('<ByePlayers>')
        for r,b in byes: out.append(f'<ByePlayer player="{keys[b]}" roundNumber="{r}"/>')
        out.append('</ByePlayers>')
    out.append(tps); out.append('</Tournament>')
    open(path,'w').write('\n'.join(out)+'\n')
    return rounds
if __name__=='__main__':
    print(gen(int(sys.argv[1]),sys.argv[2]))
