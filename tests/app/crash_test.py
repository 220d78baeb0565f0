#!/usr/bin/env python3
"""Crash safety of `swref referee` (docs/referee.md, "Crashes and resuming"): the referee, a real process, is killed
with SIGKILL at random points of a refereed game and resumed with --resume each time.

The game is the demo game photographed by the synthetic table camera (`swref dataset demo`), set up and enrolled
from its own photos, refereed from its frames and events with the players answering from the frames' truth
(--truth). First it is refereed once without a crash: the reference. Then the same game is refereed again and
killed --kills times; after every kill the record must verify (`swref verify`) and its journal must be a prefix of
the reference's (no committed event lost, changed or duplicated); the last run goes to the end, and its record must
hold the reference's entries exactly (kinds and data; the times differ), the same actions and the same final
scores.

Where the kills land: each run is killed a random time after it has started judging (its "Resume:" line), spread
so that the kills cover the whole game (the next gap is drawn from the time the rest of the game takes, shared by
the kills left); one kill in ten lands at a random time before that line (while the record is read and verified,
the resume point restored), and one in four as soon as a write of the record or the resume point is under way (its
temporary file exists: between the durable write and the rename). The run prints what the kills hit: kills inside a record write (a temporary file left
behind), kills while re-judged entries were being taken from the record, and the frames the kills fell on.

Then the disk fills up under the referee (a 64 KiB tmpfs when the test runs as root, else a file size limit): the
run must stop, exit 1 and say why, its record must verify and hold a prefix of the reference's journal; with room
again, --resume must finish the game equal to the reference.

Usage: crash_test.py SWREF [--kills N] [--size WxH] [--seed S] [--work DIR] [--keep]
Exit 0 when every check passed. Each failure prints what differed and keeps the work folder (the record and resume
point before the failing resume are in DIR/failed/).
"""
import argparse
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def entries(path):
    """The journal's (kind, data) pairs, the start entry's data left out (it names the setup's folder)."""
    with open(path) as f:
        d = json.load(f)
    out = [(e["kind"], json.dumps(e["data"], sort_keys=True)) for e in d["journal"]]
    out[0] = (out[0][0], "")
    return out, d["actions"]


def final_scores(swref, record):
    r = run([swref, "verify", record])
    line = [l for l in r.stdout.splitlines() if l.startswith("Final scores")]
    return r.returncode, (line[0] if line else r.stdout + r.stderr)


def disk_full(base, work, header, want, want_scores, swref):
    """The disk fills up while the referee writes: it stops saying why, loses nothing, and resumes once there is room."""
    problems = []
    disk = os.path.join(work, "disk")
    os.makedirs(disk, exist_ok=True)
    mounted = run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]).returncode == 0
    record = os.path.join(disk, "record.json")

    def limit():  # without root: a file size limit (the write fails with EFBIG instead of ENOSPC)
        resource.setrlimit(resource.RLIMIT_FSIZE, (24 << 10, 24 << 10))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    try:
        r = run(base + ["--game", header, "--record", record], preexec_fn=None if mounted else limit)
        said = "No space left on device" if mounted else "File too large"
        if r.returncode != 1:
            problems.append(f"the full disk: exit {r.returncode}, expected 1")
        if said not in r.stdout or "the referee accepts nothing more until the record can be written again" not in r.stdout:
            problems.append(f"the full disk: the run did not say why it stopped: {r.stdout[-600:]}")
        code, _ = final_scores(swref, record)
        have, _ = entries(record)
        stopped_at = len(have)
        if code != 0:
            problems.append(f"the full disk: the record does not verify (exit {code})")
        if have != want[:len(have)] or len(have) < 10:
            problems.append(f"the full disk: the record holds {len(have)} entries, not a prefix of the reference's")
        if mounted:
            run(["mount", "-o", "remount,size=16m", disk])
        r = run(base + ["--resume", "--record", record])
        have, _ = entries(record)
        code, scores = final_scores(swref, record)
        if r.returncode != 0 or have != want or scores != want_scores:
            problems.append(f"the full disk: resumed with room again, exit {r.returncode}, {len(have)} entries, {scores}; the reference: "
                            f"{len(want)} entries, {want_scores}")
        print(f"disk full ({'a 64 KiB tmpfs' if mounted else 'a 24 KiB file size limit'}): the referee stopped with {stopped_at} entries "
              f"recorded, exit 1, saying why; " + ("resumed with room, it finished with the reference's record" if not problems else "FAILED"))
    finally:
        if mounted:
            run(["umount", disk])
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("swref")
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--size", default="640x360")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("SWREF_CRASH_SEED", "1")))
    ap.add_argument("--work")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = a.work or tempfile.mkdtemp(prefix="swref-crash-")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()

    # 1. The game as frames, the table set up from its photos.
    table, setup = os.path.join(work, "table"), os.path.join(work, "setup")
    for cmd in ([a.swref, "dataset", "demo", "--out", table, "--size", a.size],
                [a.swref, "setup", "board", "--map", "2p", "--layout", table + "/layout.json", "--reference", table + "/reference.png",
                 "--camera", table + "/camera.json", "--out", setup],
                [a.swref, "enroll", "--setup", setup, "--crops", table + "/crops"]):
        r = run(cmd)
        if r.returncode != 0:
            print("crash test: setting up failed:", " ".join(cmd), r.stderr, file=sys.stderr)
            return 1
    base = [a.swref, "referee", "--setup", setup, "--images", table + "/frames", "--events", table + "/events.jsonl",
            "--truth", table + "/truth.jsonl", "--quiet"]
    frames = len(os.listdir(table + "/frames"))

    # 2. The reference: the game refereed without a crash.
    reference = os.path.join(work, "reference.json")
    t = time.time()
    r = run(base + ["--game", table + "/record.json", "--record", reference])
    game_seconds = time.time() - t
    if r.returncode != 0:
        print("crash test: the uninterrupted run failed:", r.stdout[-2000:], r.stderr[-2000:], file=sys.stderr)
        return 1
    want, want_actions = entries(reference)
    want_code, want_scores = final_scores(a.swref, reference)
    print(f"reference: {frames} frames, {len(want)} journal entries, {len(want_actions)} actions, {game_seconds:.1f} s; {want_scores}")

    # 3. The same game, killed again and again.
    record = os.path.join(work, "record.json")
    point = record + ".resume"
    failures = []
    kills, in_write, before_start, runs = 0, 0, 0, 0
    log = os.path.join(work, "run.log")
    kill_frames = []
    finished = False
    while not finished:
        runs += 1
        snapshot = os.path.join(work, "before")
        shutil.rmtree(snapshot, ignore_errors=True)
        os.makedirs(snapshot)
        for f in (record, point):
            if os.path.exists(f):
                shutil.copy(f, snapshot)
        cmd = base + ["--record", record] + (["--resume"] if os.path.exists(record) else ["--game", table + "/record.json"])
        killing = kills < a.kills
        with open(log, "w") as out:
            p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        if killing:
            draw = rng.random()
            early, in_a_write = draw < 0.1, draw >= 0.75
            if early:
                time.sleep(rng.uniform(0, 0.4))
            else:
                started = time.time()
                mark = "Resume:" if "--resume" in cmd else "Refereeing"
                while p.poll() is None and time.time() - started < 60:  # judging starts once it says where it resumes
                    with open(log) as f:
                        if mark in f.read():
                            break
                    time.sleep(0.005)
                progress = 0.0
                if os.path.exists(point):
                    try:
                        with open(point) as f:
                            progress = json.load(f)["next_frame"] / frames
                    except (ValueError, KeyError):
                        pass
                left = max(0.05, game_seconds * (1 - progress))
                deadline = time.time() + rng.uniform(0, 1.6 * left / (a.kills - kills + 1))
                if in_a_write:  # as soon as a write is under way (its temporary file exists), if one comes before the deadline
                    folder = os.path.dirname(record)
                    while time.time() < deadline and not any(n.startswith(".record.json") for n in os.listdir(folder)):
                        time.sleep(0.0005)
                else:
                    time.sleep(max(0.0, deadline - time.time()))
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                kills += 1
                before_start += early
                folder = os.path.dirname(record)
                in_write += any(n.startswith(".record.json.tmp.") or n.startswith(".record.json.resume.tmp.") for n in os.listdir(folder))
            else:
                p.wait()
                finished = p.returncode == 0
                if p.returncode != 0:
                    failures.append(f"run {runs} exited {p.returncode}: {open(log).read()[-800:]}")
        else:
            p.wait()
            if p.returncode != 0:
                failures.append(f"the last run exited {p.returncode}: {open(log).read()[-800:]}")
            finished = True
        # Every kill point: the record verifies and holds a prefix of the reference's journal.
        if os.path.exists(record):
            code, scores = final_scores(a.swref, record)
            have, _ = entries(record)
            if code != 0:
                failures.append(f"run {runs}: swref verify exits {code}: {scores}")
            if have != want[:len(have)]:
                k = next(i for i, (x, y) in enumerate(zip(have, want)) if x != y) if any(x != y for x, y in zip(have, want)) else len(want)
                failures.append(f"run {runs}: journal entry {k} differs from the reference's: {have[k] if k < len(have) else None} vs "
                                f"{want[k] if k < len(want) else None}")
            if os.path.exists(point):
                try:
                    with open(point) as f:
                        kill_frames.append(json.load(f)["next_frame"])
                except (ValueError, KeyError):
                    failures.append(f"run {runs}: the resume point is not readable JSON")
        if failures:
            shutil.rmtree(os.path.join(work, "failed"), ignore_errors=True)
            shutil.copytree(snapshot, os.path.join(work, "failed"))
            break
        if runs > a.kills * 3:
            failures.append("the game did not progress (%d runs)" % runs)
            break

    if not failures:
        failures += disk_full(base, work, table + "/record.json", want, want_scores, a.swref)
    have, have_actions = entries(record) if os.path.exists(record) else ([], [])
    code, scores = final_scores(a.swref, record) if os.path.exists(record) else (2, "no record")
    if not failures:
        if have != want:
            failures.append(f"the final journal has {len(have)} entries, the reference {len(want)}, or they differ")
        if have_actions != want_actions:
            failures.append("the final actions differ from the reference's")
        if (code, scores) != (want_code, want_scores):
            failures.append(f"final: {scores} (exit {code}); the reference: {want_scores} (exit {want_code})")
    spread = sorted(set(kill_frames))
    print(f"{kills} kills ({before_start} before the run started judging, {in_write} inside a write, leaving a temporary file), "
          f"{runs} runs; the resume points reached {len(spread)} different frames of {frames}; {time.time() - t0:.0f} s in all")
    print(f"final: {len(have)} journal entries, {len(have_actions)} actions; {scores}")
    for f in failures:
        print("FAIL:", f)
    if failures or a.keep:
        print("work folder kept:", work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
