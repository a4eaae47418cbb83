# Shared by scripts/farm-scaling and scripts/machine-ceiling (sourced from
# the repository root), so that the ceiling is measured on the same grid of
# cells the farm's scaling is.

# use_schedfarm WORK sets bin to $SCHEDFARM_BIN, or to a static schedfarm
# built into WORK.
use_schedfarm() {
  if [ -n "${SCHEDFARM_BIN:-}" ]; then
    bin=$SCHEDFARM_BIN
  else
    CGO_ENABLED=0 go build -o "$1/schedfarm" ./cmd/schedfarm
    bin=$1/schedfarm
  fi
}

# scaling_spec NAME REPS OUTPUT writes the scaling grid's spec: FCFS, EASY
# and CONS over ten offered loads (0.5–0.95) of 20,000 Lublin–Feitelson
# jobs on 128 processors, REPS replications (30 × REPS cells). NAME enters
# the cells' seeds.
scaling_spec() {
  cat <<EOF
name: $1
platform:
  procs: 128
workload:
  generator:
    model: lublin99
    jobs: 20000
    procs: 128
    estimates: tsafrir05
  estimates: user
  overrun: kill
  warmup: 500
schedulers: [fcfs, easy, cons]
axes:
  - param: workload.load
    range: {from: 0.5, to: 0.95, step: 0.05}
replications: $2
seed: 2026
output: $3
EOF
}

# median prints the median of the numbers on stdin, one a line or
# separated by spaces.
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
