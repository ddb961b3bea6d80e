#!/usr/bin/env python3
"""A scripted GTP program for testing `kifu match`.

It plays the first empty points of the board (row by row from the top left)
for --moves moves, then passes, unless told to misbehave:

  --slow SECONDS     think this long before every genmove answer
  --stall-at N       think for ten minutes at its Nth genmove
  --illegal-at N     answer its Nth genmove with the opponent's last point (occupied)
  --crash-at N       exit with status 3 at its Nth genmove
  --crash-once FILE  ... only when FILE does not exist yet (it creates it)
  --malformed-at N   answer its Nth genmove with text that is not GTP
  --chatter-at N     after answering its Nth genmove, print a stray line
  --silent           read commands and never answer anything
  --dead LIST        answer to `final_status_list dead` (vertices)
  --score TEXT       answer to `final_score`
  --pid-file FILE    write the process id to FILE

It writes a line to standard error for every command (the server keeps it in
a log beside the record).
"""
import argparse
import os
import sys
import time

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

p = argparse.ArgumentParser()
p.add_argument("--moves", type=int, default=3)
p.add_argument("--slow", type=float, default=0.0)
p.add_argument("--stall-at", type=int, default=0)
p.add_argument("--illegal-at", type=int, default=0)
p.add_argument("--crash-at", type=int, default=0)
p.add_argument("--crash-once", default="")
p.add_argument("--malformed-at", type=int, default=0)
p.add_argument("--chatter-at", type=int, default=0)
p.add_argument("--silent", action="store_true")
p.add_argument("--dead", default="")
p.add_argument("--score", default="W+6.5")
p.add_argument("--pid-file", default="")
a = p.parse_args()

if a.pid_file:
    with open(a.pid_file, "w") as f:
        f.write(str(os.getpid()))

size = 19
occupied = set()
last_opponent = None
genmoves = 0


def answer(text=""):
    sys.stdout.write("= " + text + "\n\n")
    sys.stdout.flush()


def vertex(x, y):
    return "%s%d" % (LETTERS[x], size - y)


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    sys.stderr.write("fake_gtp got: %s\n" % line.strip())
    sys.stderr.flush()
    if a.silent:
        continue
    cmd = words[0]
    if cmd == "boardsize":
        size = int(words[1])
        answer()
    elif cmd == "clear_board":
        occupied = set()
        answer()
    elif cmd == "play":
        if words[2].lower() != "pass":
            occupied.add(words[2].upper())
            last_opponent = words[2].upper()
        answer()
    elif cmd == "genmove":
        genmoves += 1
        if a.slow:
            time.sleep(a.slow)
        if a.stall_at == genmoves:
            time.sleep(600)
        crash = a.crash_at == genmoves
        if crash and a.crash_once:
            if os.path.exists(a.crash_once):
                crash = False
            else:
                open(a.crash_once, "w").close()
        if crash:
            sys.stderr.write("fake_gtp: crashing\n")
            sys.exit(3)
        if a.malformed_at == genmoves:
            sys.stdout.write("I think I will play somewhere nice\n\n")
            sys.stdout.flush()
            continue
        if a.illegal_at == genmoves and last_opponent:
            answer(last_opponent)
            continue
        if genmoves > a.moves:
            answer("pass")
            continue
        for i in range(size * size):
            v = vertex(i % size, i // size)
            if v not in occupied:
                occupied.add(v)
                answer(v)
                break
        else:
            answer("pass")
        if a.chatter_at == genmoves:
            sys.stdout.write("thinking done, by the way\n")
            sys.stdout.flush()
    elif cmd == "final_status_list":
        answer(a.dead)
    elif cmd == "final_score":
        answer(a.score)
    elif cmd == "quit":
        answer()
        break
    else:
        answer()
