#!/usr/bin/env bash
# Rates of `-n` requests on one core (`-j 1`) over the whole request space: every level (any, 1, 2,
# 3), with and without --minimal and --symmetric, for blank ranges LOW~HIGH taken from a grid of
# counts. A request is either refused up front (exit 2, shown as "refused") or should make about 50
# puzzles a second or more.
#
#   scripts/survey-puzzles.sh [BINARY]          (default: target/release/sudoku-gen)
#
# The rate is COUNT over the CPU time the run took (user and system), which a machine shared with
# other work changes far less than the wall time. A run is stopped after LIMIT seconds of CPU time and
# shows "<RATE", at most COUNT / LIMIT. The clock counts milliseconds: rates of thousands are coarse.
#
# Environment: COUNT (puzzles per run, default 30), LIMIT (whole seconds, default 2), POINTS (the
# counts LOW and HIGH take), SEED (default 1), FLOOR (default 50); SLOW_ONLY=1 prints only the
# accepted requests below FLOOR. The last line counts accepted, refused and slow requests.
set -u
binary=${1:-target/release/sudoku-gen}
count=${COUNT:-30}
limit=${LIMIT:-2}
seed=${SEED:-1}
floor=${FLOOR:-50}
read -ra points <<<"${POINTS:-1 10 18 22 24 28 32 40 48 52 54 55 56 57 58}"
accepted=0 refused=0 slow=0
TIMEFORMAT='%U %S'
printf '%-6s %-8s %-10s %-7s %s\n' level minimal symmetric range rate
for level in any 1 2 3; do
  for minimal in no yes; do
    for symmetric in no yes; do
      for low in "${points[@]}"; do
        for high in "${points[@]}"; do
          ((low <= high)) || continue
          args=(-n "$count" -j 1 --seed "$seed" -r "$low~$high")
          [[ $level != any ]] && args+=(-m "$level")
          [[ $minimal == yes ]] && args+=(--minimal)
          [[ $symmetric == yes ]] && args+=(--symmetric)
          # The run's exit code, then its CPU seconds (user, system): the last two lines, after the
          # shell's notice of a run the limit stopped.
          read -r code user system < <(
            { time { bash -c 'ulimit -t "$1"; shift; exec "$@"' - "$limit" "$binary" "${args[@]}" \
              >/dev/null 2>&1; echo $? >&3; }; } 3>&1 2>&1 | tail -n 2 | tr '\n' ' '
          )
          if ((code == 2)); then
            rate=refused
            refused=$((refused + 1))
          else
            accepted=$((accepted + 1))
            if ((code != 0)); then
              rate="<$((count / limit))"
              slow=$((slow + 1))
            else
              rate=$(awk -v n="$count" -v u="$user" -v s="$system" \
                'BEGIN { t = u + s; printf "%.0f", n / (t > 0.001 ? t : 0.001) }')
              ((rate < floor)) && slow=$((slow + 1))
            fi
          fi
          if [[ ${SLOW_ONLY:-0} != 1 || $rate == \<* ]] ||
            [[ $rate != refused && $rate -lt $floor ]]; then
            printf '%-6s %-8s %-10s %-7s %s\n' "$level" "$minimal" "$symmetric" "$low~$high" "$rate"
          fi
        done
      done
    done
  done
done
echo "accepted $accepted, refused $refused, below $floor/s: $slow"
