"""Compares OpenGotha's standings (Harness.java) with kifu's for one file and round.

Usage: compare.py FILE ROUND DATA_DIR (KIFU_BIN, OPENGOTHA_CP override the paths)."""
import json, subprocess, sys, os
K=os.environ.get('KIFU_BIN', 'target/debug/kifu')
names=['NBW','MMS','CUSSW','CUSSM','SOSW','SOSW-1','SOSW-2','SODOSW','SOSOSW','SOSM','SOSM-1','SOSM-2','SODOSM','SOSOSM','EXT','EXR','DC','SDC']
scale=[2,2,2,2,2,2,2,4,2,2,2,2,4,2,2,2,1,1]
def run(xml, rnd, data):
    og = subprocess.run(['java','-cp',os.environ.get('OPENGOTHA_CP', '/tmp/og/classes:/tmp/og/lib/jhall.jar'),'info.vannier.gotha.Harness',xml,str(rnd)],capture_output=True,text=True,timeout=120)
    if og.returncode!=0: print(og.stderr[-2000:]); sys.exit(2)
    rows=[l.split() for l in og.stdout.strip().split('\n') if l.strip()]
    env=dict(os.environ, KIFU_DATA=data)
    key=data+'/dir.key'
    if not os.path.exists(key):
        subprocess.run([K,'keygen',data+'/dir'],env=env,capture_output=True)
    imp=subprocess.run([K,'tournament','import-opengotha',xml,'--key',key],env=env,capture_output=True,text=True)
    if imp.returncode!=0: print('import failed', imp.stderr); sys.exit(2)
    tid=imp.stdout.strip()
    st=subprocess.run([K,'tournament','standings',tid,'--after-round',str(rnd),'--all-criteria','--json'],env=env,capture_output=True,text=True)
    if st.returncode!=0: print('standings failed', st.stderr); sys.exit(2)
    j=json.loads(st.stdout)
    ours=[(r['player'],r['place'],r['values']) for r in j['table']]
    bad=0
    if [r[0] for r in rows]!=[o[0] for o in ours]:
        print('ORDER differs'); print(' og  :',[r[0] for r in rows]); print(' kifu:',[o[0] for o in ours]); bad+=1
    og={r[0]:r for r in rows}
    for pid,place,vals in ours:
        r=og.get(pid)
        if r is None: print('missing',pid); bad+=1; continue
        if int(r[1])!=place: print(pid,'place og',r[1],'kifu',place); bad+=1
        for i,n in enumerate(names):
            ov=int(r[2+i]); kv=vals[n]*scale[i]
            if abs(ov-kv)>1e-9:
                print(pid,n,'og',ov/scale[i],'kifu',vals[n]); bad+=1
    return bad
if __name__=='__main__':
    b=run(sys.argv[1],int(sys.argv[2]),sys.argv[3])
    print('differences:',b)
    sys.exit(1 if b else 0)
