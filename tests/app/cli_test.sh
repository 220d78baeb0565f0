#!/usr/bin/env bash
# End-to-end tests of the swref executable as a user runs it: exit codes, output, error messages.
# Usage: cli_test.sh SWREF SOURCE_DIR
set -u
swref=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
passed=0
check() {  # name, condition result
  if [ "$2" = 0 ]; then passed=$((passed + 1)); else echo "FAIL: $1"; failed=$((failed + 1)); fi
}

"$swref" help > "$tmp/help.txt"; check "help exits 0" $?
# Start-up stays light: swref links neither OpenCV's imgcodecs nor its videoio (docs/architecture.md, "Pictures,
# videos and start-up"); videos go through the plugin beside it.
! ldd "$swref" | grep -qE "libopencv_(imgcodecs|videoio)"; check "swref links neither imgcodecs nor videoio" $?
[ -f "$(dirname "$swref")/libswref_video.so" ]; check "the video plugin is built beside swref" $?
grep -q "swref play RECORD" "$tmp/help.txt"; check "help lists play" $?
"$swref" > /dev/null; check "no arguments shows the overview" $?
"$swref" help play | grep -q -- "--pretty"; check "help play shows its options" $?

"$swref" play "$src/examples/first-game.json" > "$tmp/play.json"; check "play exits 0 on the example" $?
python3 - "$tmp/play.json" <<'PY'; check "play output is the documented document" $?
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["steps", "turns", "final"], list(d)
assert d["final"]["coins"] == {"Ann": 25, "Bob": 12}, d["final"]["coins"]
assert [s["code"] for s in d["steps"] if not s["ok"]] == ["not_adjacent", "not_enough_tokens"]
assert d["turns"][0] == {"round": 1, "player": "Ann", "coins": {"regions": 4, "race": 0, "power": 4, "total": 8}}, d["turns"][0]
PY

"$swref" dataset demo --record "$src/examples/solo-2p.json" --out "$tmp/solo-frames" --size 640x480 > "$tmp/sf.txt" 2>/dev/null
check "dataset demo --record photographs the solo example" $?
grep -q "examples/solo-2p.json as [0-9]* camera frames" "$tmp/sf.txt" && [ -f "$tmp/solo-frames/events.jsonl" ] && [ -f "$tmp/solo-frames/truth.jsonl" ]
check "... and writes its frames, events and truth" $?
echo '{"format": "smallworld-record/1", "map": "nowhere.json", "players": ["Ann", "Bob"], "actions": []}' > "$tmp/nomap.json"
"$swref" dataset demo --record "$tmp/nomap.json" --out "$tmp/nomap-frames" > /dev/null 2> "$tmp/err.txt"
[ $? = 1 ] && grep -qF 'nomap.json: map: "nowhere.json" is neither a built-in map' "$tmp/err.txt"; check "dataset demo --record names a missing map" $?
"$swref" play "$src/examples/solo-2p.json" > "$tmp/solo.json"; check "play exits 0 on the solo example" $?
python3 - "$tmp/solo.json" <<'PY'; check "a solo game's output has its score and rating" $?
import json, sys
d = json.load(open(sys.argv[1]))
assert all(s["ok"] for s in d["steps"]), [s for s in d["steps"] if not s["ok"]]
solo = d["final"]["solo"]
assert (solo["phase"], solo["score"], solo["rating"]) == ("over", 84, "Master Victory"), solo
assert d["final"]["coins"] == {"Ann": 104} and d["final"]["winners"] == ["Ann"], d["final"]
PY
printf '{"format": "smallworld-record/1", "variant": "solo", "map": "2p", "players": ["Ann"], "solo": {"coins": 3}, "actions": []}' > "$tmp/badsolo.json"
"$swref" play "$tmp/badsolo.json" > /dev/null 2> "$tmp/err.txt"; [ $? = 2 ]; check "a malformed solo record exits 2" $?
grep -q 'record.solo.coins: expected 5, or 1 for the more challenging game, got 3' "$tmp/err.txt"; check "... naming the field" $?

printf '{"format": "smallworld-record/1", "map": "2p", "players": ["Ann", "Bob"], "actions": [{"player": "Ann", "do": "conquer", "region": "x"}]}' > "$tmp/bad.json"
"$swref" play "$tmp/bad.json" > "$tmp/out.txt" 2> "$tmp/err.txt"; code=$?
[ $code = 2 ]; check "malformed record exits 2 (got $code)" $?
grep -q 'record.actions\[0\].region: expected an integer, got "x"' "$tmp/err.txt"; check "malformed record names the field" $?
[ ! -s "$tmp/out.txt" ]; check "malformed record prints nothing on stdout" $?
echo '{not json' > "$tmp/broken.json"
"$swref" play "$tmp/broken.json" 2> "$tmp/err.txt"; [ $? = 2 ]; check "broken JSON exits 2" $?
grep -q "not valid JSON" "$tmp/err.txt"; check "broken JSON says so" $?
"$swref" play "$tmp/missing.json" 2> /dev/null; [ $? = 2 ]; check "missing record exits 2" $?
"$swref" play 2> /dev/null; [ $? = 2 ]; check "play without a record exits 2" $?
"$swref" frobnicate 2> /dev/null; [ $? = 2 ]; check "unknown command exits 2" $?

"$swref" demo --record-out "$tmp/demo.json" > "$tmp/demo.txt"; check "demo exits 0" $?
grep -q "not_adjacent" "$tmp/demo.txt"; check "demo flags a non-adjacent conquest" $?
grep -q "not_enough_tokens" "$tmp/demo.txt"; check "demo flags a conquest with too few tokens" $?
"$swref" play "$tmp/demo.json" > "$tmp/demo-play.json"; check "the demo's record replays" $?

# The journal, swref verify and swref report (docs/record.md "The journal", docs/report.md).
"$swref" demo --record-out "$tmp/jdemo.json" --journal 2> "$tmp/err.txt"
[ $? = 2 ] && grep -q -- "--journal requires --rules-only" "$tmp/err.txt"; check "demo --journal without --rules-only is refused" $?
"$swref" demo --rules-only --record-out "$tmp/jdemo.json" --journal > /dev/null; check "demo --rules-only --journal writes a journaled record" $?
"$swref" verify "$tmp/jdemo.json" > "$tmp/verify.txt"; check "verify a journaled record exits 0" $?
grep -q "jdemo.json: verified" "$tmp/verify.txt" && grep -q "Final scores: Ann 91, Bob 75." "$tmp/verify.txt"; check "... and prints the final scores" $?
"$swref" play "$tmp/jdemo.json" | grep -q '"coins":{"Ann":91,"Bob":75}'; check "swref play replays the journaled record to the same scores" $?
python3 - "$tmp/jdemo.json" <<'PY'; check "the hash chain recomputes in Python (canonical form documented)" $?
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
h = lambda x: hashlib.sha256(json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
prev = h({k: v for k, v in d.items() if k not in ("actions", "journal", "head")})
for e in d["journal"]:
    assert e["prev"] == prev and e["hash"] == h({k: v for k, v in e.items() if k != "hash"}), e["seq"]
    prev = e["hash"]
assert d["head"] == {"entries": len(d["journal"]), "hash": prev}
PY
tamper() {  # python snippet over d, then verify: expects exit 1 and the message
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $1; json.dump(d, open(sys.argv[2], 'w'))" "$tmp/jdemo.json" "$tmp/t.json"
  "$swref" verify "$tmp/t.json" > /dev/null 2> "$tmp/err.txt"; [ $? = 1 ] && grep -qF "$2" "$tmp/err.txt"
}
tamper 'd["journal"][5]["data"]["region"] = 7' "t.json: record.journal[5]: hash does not match its content (edited)"; check "verify names an edited entry (exit 1)" $?
tamper 'del d["journal"][9]' "record.journal[9]: prev does not match entry 8 (deleted, inserted or reordered)"; check "verify names a deleted entry" $?
tamper 'd["actions"][3], d["actions"][4] = d["actions"][4], d["actions"][3]' "record.actions[3] differs from journal["; check "verify names reordered actions" $?
"$swref" verify "$src/examples/first-game.json" > "$tmp/verify.txt"; [ $? = 3 ]; check "verify of a record without a journal exits 3" $?
grep -q "no hash chain" "$tmp/verify.txt" && grep -q "Final scores: Ann 25, Bob 12." "$tmp/verify.txt"; check "... says so and still prints the scores" $?
"$swref" verify "$src/examples/solo-2p.json" | grep -q "Solo score 84 (the opposition scored 20), rating: Master Victory."; check "verify prints a solo game's score and rating" $?
"$swref" verify "$tmp/broken.json" 2> "$tmp/err.txt"; [ $? = 2 ] && grep -q "not valid JSON" "$tmp/err.txt"; check "verify of a broken file exits 2" $?
"$swref" help verify | grep -q "RECORD"; check "help verify" $?
python3 -c "import sys; open(sys.argv[1], 'w').write('{\"map\": \"2p\", \"journal\": [' + '[' * 300000 + ']' * 300000 + ']}')" "$tmp/deep.json"
"$swref" verify "$tmp/deep.json" 2> "$tmp/err.txt"; [ $? = 2 ] && grep -q "JSON nested deeper than 64 levels" "$tmp/err.txt"; check "verify refuses a record nested 300,000 deep (exit 2), no crash" $?
"$swref" report "$tmp/jdemo.json" "$src/examples/first-game.json" --out "$tmp/report" > "$tmp/report.txt"; check "report of two records exits 0" $?
for f in jdemo.html jdemo-scores.png jdemo-scores.svg jdemo-turns.csv jdemo-flags.csv jdemo-ranking.csv first-game.html tournament.html tournament.csv; do
  [ -s "$tmp/report/$f" ] || { echo "missing $f"; false; }
done; check "... writes every page, chart and table" $?
head -c 8 "$tmp/report/jdemo-scores.png" | grep -q "PNG"; check "... the chart as a PNG" $?
[ "$(grep -c taken "$tmp/report/jdemo-flags.csv")" = 2 ]; check "... the demo's two flags, taken back" $?
grep -q "^1,Ann,2,1,116," "$tmp/report/tournament.csv"; check "... the tournament table" $?
"$swref" report "$tmp/t.json" --out "$tmp/report2" 2> "$tmp/err.txt"; [ $? = 1 ] && [ ! -e "$tmp/report2" ]; check "report refuses a tampered record, writing nothing" $?
"$swref" report "$tmp/missing.json" --out "$tmp/report2" 2> /dev/null; [ $? = 2 ]; check "report of a missing record exits 2" $?

"$swref" bench engine --games 20 --json > "$tmp/bench.json" 2> /dev/null; check "bench engine runs" $?
grep -q '"signature"' "$tmp/bench.json"; check "bench prints a signature" $?

"$swref" bench scene --scenes 3 --json > "$tmp/scene.json" 2> /dev/null; check "bench scene runs" $?
grep -q '"median_ms"' "$tmp/scene.json"; check "bench scene prints its median" $?
"$swref" help setup board | grep -q -- "--layout"; check "help of a two-word command shows its options" $?
"$swref" help setup | grep -q "board"; check "help of a command's first word lists its subcommands" $?
"$swref" bench vision --frames 2 --moves 2 --size 960x540 --json > "$tmp/vision.json" 2> /dev/null; check "bench vision runs" $?
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['observe_ms'] > 0 and j['lab_ms'] > 0 and j['observe_peak_mb'] > 0 else 1)" "$tmp/vision.json"
check "bench vision times the observation against the Lab yardstick and measures swref observe's memory" $?
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['moves'] == 2 and 0 < j['move_ms'] and 0 < j['move_changed_share'] < 0.25 else 1)" "$tmp/vision.json"
check "... and a game's scenes after a move, observed where the board changed" $?

"$swref" dataset generate --out "$tmp/ds" --scenes 2 --size 640x360 --crops 1 > "$tmp/ds.txt" 2> "$tmp/ds.err"; check "dataset generate exits 0" $?
[ "$(wc -l < "$tmp/ds/truth.jsonl")" = 2 ]; check "dataset generate writes one truth line per image" $?
grep -q "dataset generate 100%" "$tmp/ds.err"; check "dataset generate shows its progress" $?
[ -f "$tmp/ds/reference.png" ] && [ -f "$tmp/ds/layout.json" ] && [ -f "$tmp/ds/crops/ratmen_decline/00000.png" ]; check "dataset generate writes the setup material" $?
"$swref" dataset generate --out "$tmp/ds" --scenes 2 2> "$tmp/err.txt"; [ $? = 1 ]; check "dataset generate refuses a non-empty folder" $?
grep -q "the folder is not empty" "$tmp/err.txt"; check "... and says so" $?
"$swref" dataset generate --out "$tmp/ds2" --size 12 2> "$tmp/err.txt"; [ $? = 2 ]; check "a bad --size exits 2" $?
grep -q -- "--size: expected WIDTHxHEIGHT" "$tmp/err.txt"; check "... naming the option" $?
"$swref" dataset eval "$tmp/ds" --observations "$tmp/ds/truth.jsonl" > "$tmp/eval.txt"; check "dataset eval scores observations" $?
grep -q "board exact match 100.0%" "$tmp/eval.txt"; check "... the truth scores 100%" $?
"$swref" dataset eval "$tmp/ds" --setup "$tmp/ds" 2> "$tmp/err.txt"; [ $? = 1 ]; check "dataset eval --setup refuses a folder that is no setup" $?
grep -q "swref setup board" "$tmp/err.txt"; check "... and says how to make one" $?
"$swref" setup board --map 2p --layout "$tmp/ds/layout.json" --reference "$tmp/ds/reference.png" --out "$tmp/setup" > "$tmp/setup.txt"; check "setup board from the dataset's material" $?
grep -q "adjacency equals map 2p" "$tmp/setup.txt"; check "... checks the layout against the map" $?
"$swref" setup board --map 3p --layout "$tmp/ds/layout.json" --reference "$tmp/ds/reference.png" --out "$tmp/setup3" 2> "$tmp/err.txt"; [ $? = 1 ]; check "setup board refuses a layout of another map" $?
grep -q "23 regions, but map 3p has 30" "$tmp/err.txt"; check "... saying why" $?
"$swref" enroll --setup "$tmp/setup" --crops "$tmp/ds/crops" > "$tmp/enroll.txt"; check "enroll from crops" $?
grep -q "Enrolled 36 crops of 36 token kinds" "$tmp/enroll.txt"; check "... reports what it enrolled" $?
"$swref" observe --setup "$tmp/setup" "$tmp/ds/images/s00000.jpg" > "$tmp/obs.jsonl"; check "observe runs" $?
python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).readline()); assert d['status'] in ('ok','motion') and len(d['regions'])==23" "$tmp/obs.jsonl"; check "... one Observation line with every region" $?
"$swref" observe --incremental --setup "$tmp/setup" "$tmp/ds/images/s00000.jpg" "$tmp/ds/images/s00000.jpg" > "$tmp/obs_inc.jsonl"
check "observe --incremental runs" $?
python3 -c "import json,sys; a,b=[json.loads(l) for l in open(sys.argv[1])]; assert a['regions']==b['regions']" "$tmp/obs_inc.jsonl"
check "... and reads the same frame again as it read it" $?
printf 'not an image' > "$tmp/bad.jpg"
"$swref" observe --setup "$tmp/setup" "$tmp/bad.jpg" | grep -q '"status":"bad_image"'; check "observe reports a bad image, no crash" $?
"$swref" observe --setup "$tmp/setup" "$tmp/bad.jpg" 2>&1 >/dev/null | grep -q "^swref: observe: .*bad.jpg: bad image: ."; check "... and says why on stderr" $?
"$swref" observe --setup "$tmp/setup" "$tmp/ds/mat_front.jpg" 2> "$tmp/err.txt" | grep -q '"status":"no_board"'; check "observe reports a photo without the board as no_board" $?
grep -q "^swref: observe: .*mat_front.jpg: no board: ." "$tmp/err.txt"; check "... and says why on stderr" $?
"$swref" observe --setup "$tmp/setup" --debug-dir "$tmp/dbg" "$tmp/ds/images/s00000.jpg" > /dev/null && test -s "$tmp/dbg/s00000/times.json" && test -s "$tmp/dbg/s00000/1-rectified.png"
check "observe --debug-dir writes each stage's picture and times" $?
mkdir -p "$tmp/dbg2/s00000/times.json"  # a folder where the file should go: the write fails
"$swref" observe --setup "$tmp/setup" --debug-dir "$tmp/dbg2" "$tmp/ds/images/s00000.jpg" > "$tmp/obs2.jsonl" 2> "$tmp/err.txt"
test $? -ne 0 && grep -q "times.json: cannot write" "$tmp/err.txt" && test -s "$tmp/obs2.jsonl"
check "... a debug file it cannot write stops it with the file named, the observation already given out" $?
"$swref" dataset eval "$tmp/ds" --setup "$tmp/setup" > "$tmp/eval2.txt" 2> /dev/null; check "dataset eval runs the observer" $?
grep -q "region error" "$tmp/eval2.txt"; check "... and scores it" $?
"$swref" print tokens --out "$tmp/tokens.pdf" --sample > /dev/null; check "print tokens exits 0" $?
head -c 4 "$tmp/tokens.pdf" | grep -q "%PDF"; check "print tokens writes a PDF" $?
"$swref" print tokens --out /nonexistent-dir/t.pdf 2> "$tmp/err.txt"; [ $? = 1 ]; check "print tokens to a bad path exits 1" $?
grep -q "/nonexistent-dir/t.pdf" "$tmp/err.txt"; check "... naming the file" $?

data="$src/tests/data/opencv-chessboard-stereo"
"$swref" calibrate camera --chessboard 9x6 --square-mm 25 "$data/left01.jpg" "$data/left02.jpg" "$data/left03.jpg" "$data/left04.jpg" --out "$tmp/cam.json" > "$tmp/cal.txt" 2> /dev/null; check "calibrate camera from 4 chessboard photos" $?
grep -q "RMS reprojection error" "$tmp/cal.txt" && [ -f "$tmp/cam.json" ]; check "... reports the RMS and writes camera.json" $?
"$swref" calibrate camera --chessboard 9x6 --square-mm 25 "$data/left01.jpg" --out "$tmp/cam2.json" 2> "$tmp/err.txt"; [ $? = 2 ]; check "calibrate camera with one photo exits 2" $?
"$swref" calibrate camera --chessboard 9 --square-mm 25 "$data/left01.jpg" 2> "$tmp/err.txt"; [ $? = 2 ]; check "a bad pattern exits 2" $?

for t in markers charuco mat; do
  "$swref" print $t --out "$tmp/$t.pdf" > /dev/null; check "print $t exits 0" $?
  head -c 4 "$tmp/$t.pdf" | grep -q "%PDF"; check "... and writes a PDF" $?
done
"$swref" enroll --setup "$tmp/setup" --mat "$tmp/ds/reference.png" --flipped "$tmp/ds/reference.png" 2> "$tmp/err.txt"; [ $? = 1 ]; check "enroll --mat refuses a photo without the mat" $?
grep -q "missing 10, 11, 12, 13" "$tmp/err.txt"; check "... naming the missing markers" $?
# The two photos of the printed mat a dataset comes with (at the table camera's 1920x1080), through enroll.
"$swref" dataset generate --out "$tmp/dsm" --scenes 1 --crops 0 > /dev/null 2>&1; check "dataset generate writes the mat photos" $?
"$swref" setup board --map 2p --layout "$tmp/dsm/layout.json" --reference "$tmp/dsm/reference.png" --camera "$tmp/dsm/camera.json" \
  --out "$tmp/setupm" > /dev/null; check "setup board for them" $?
"$swref" enroll --setup "$tmp/setupm" --mat "$tmp/dsm/mat_front.jpg" --flipped "$tmp/dsm/mat_flipped.jpg" > "$tmp/enrollm.txt"
check "enroll from the two photos of the printed mat" $?
grep -q "Enrolled 44 crops of 36 token kinds" "$tmp/enrollm.txt"; check "... every kind: 22 cells in each photo" $?
grep -Eq "^amazons +1 +- " "$tmp/enrollm.txt" && grep -Eq "^dragon +2 +[0-9]+% " "$tmp/enrollm.txt"
check "... the quality of a kind in both photos, none for a single photo" $?

echo "cli: $passed passed, $failed failed"
[ $failed = 0 ]
