#!/usr/bin/env bash
# Both stacks (old, new) at once, each its own static/realtime/gateway on ipc, the launcher's fixtures replayed;
# then two transit-bench load generators at the same time (BENCHMARKS.md session 17).
# Usage: OLD=<release bin dir> NEW=<release bin dir> DATA=<dir with nsw.db, replay/, ids.txt> \
#        AT=<unix> benchmarks/side-by-side.sh MIX RATE TAG
# DATA: transit-feedgen --out nsw; transit-static import --db nsw.db nsw;
#       transit-realtime fixtures --db nsw.db --out replay --replay 20 --at $AT;
#       transit-bench load --db nsw.db --window 07:00-09:00 --date <AT's date> --write-ids ids.txt
set -euo pipefail
mix=$1; rate=$2; tag=$3
D=${DATA:?}
AT=${AT:?}
out=$D/out; mkdir -p $out
pids=()
start_stack() { # name bin port
  local name=$1 bin=$2 port=$3 run=$D/run-$1
  rm -rf $run; mkdir -p $run
  cp -r $D/replay $run/replay
  printf '{"sources": [{"name": "replay", "replay": "%s", "pace_s": 30, "loop": true}]}\n' "$run/replay" > $run/realtime.json
  local clock=(--clock "$AT" --clock-origin "$(date +%s.%N)")
  $bin/transit-static serve --db $D/nsw.db --listen "ipc://$run/static.sock" "${clock[@]}" > $run/static.log 2>&1 &
  local s=$!
  $bin/transit-realtime serve --config $run/realtime.json --static "ipc://$run/static.sock" \
    --listen "ipc://$run/realtime.sock" --publish "ipc://$run/realtime-pub.sock" "${clock[@]}" > $run/realtime.log 2>&1 &
  local r=$!
  $bin/transit-gateway serve --static "ipc://$run/static.sock" --realtime "ipc://$run/realtime.sock" \
    --subscribe "ipc://$run/realtime-pub.sock" --listen "127.0.0.1:$port" "${clock[@]}" > $run/gateway.log 2>&1 &
  local g=$!
  pids+=($s $r $g)
  echo "static=$s,realtime=$r,gateway=$g" > $run/pids
}
start_stack old ${OLD:?} 18801
start_stack new ${NEW:?} 18802
trap 'kill ${pids[@]} 2>/dev/null || true' EXIT
for p in 18801 18802; do
  for i in $(seq 1 120); do printf '{"op":"health"}\n' | nc -N -w 1 127.0.0.1 $p 2>/dev/null | grep -q '"ok":true' && break; sleep 1; done
done
sleep 15
B=$NEW/transit-bench
load() { # name port
  $B load --connect 127.0.0.1:$2 --ids $D/ids.txt --timezone Australia/Sydney --window 07:00-09:00 \
    --date "$(TZ=Australia/Sydney date -d @$AT +%F)" --mix $mix --connections 64 --rate $rate --duration 30s --warmup 5s \
    --pids "$(cat $D/run-$1/pids)" > $out/$tag-$1.txt 2>&1
}
load old 18801 & a=$!
load new 18802 & b=$!
wait $a $b
grep -h -i "cpu\|p99\|answers/s" $out/$tag-old.txt | head -5
echo ---
grep -h -i "cpu\|p99\|answers/s" $out/$tag-new.txt | head -5
