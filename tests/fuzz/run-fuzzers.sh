#!/usr/bin/env bash
# Builds the libFuzzer targets into build-fuzz/ (clang, -DTRACEFOLD_FUZZ=ON) and runs each for a given time.
#
#   tests/fuzz/run-fuzzers.sh [SECONDS] [TARGET...]     default: 300 seconds, every target
#   FUZZ_PARALLEL=2 tests/fuzz/run-fuzzers.sh 300       two targets at a time (never more than the cores)
#
# Targets: loader ndjson commitlog findings json_oracle. Corpora: build-fuzz/corpus/<target>/ grows (not committed); the seeds
# are tests/fuzz/corpus/<target>/ (committed, made by make-corpus.py), for loader also tests/data/samples and
# recordings generated here with tracefold-cli generate; for json_oracle (the core's JSON reader against
# nlohmann_json, which must be installed: nlohmann-json3-dev) every committed corpus, the samples, the broken files
# and the vectors. Crashes, leaks, UB and timeouts land in
# build-fuzz/artifacts/<target>/; minimize one with
#   build-fuzz/tests/fuzz/fuzz_<target> -minimize_crash=1 -runs=20000 -exact_artifact_path=OUT CRASH
# then add it to tests/data/fuzz-regressions/<target>/ (ctest replays that folder in every build).
# Each run's log is build-fuzz/logs/<target>.log; the summary (executions, time, cov, ft) is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_PER_TARGET=${1:-300}
shift || true
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(loader ndjson commitlog findings json_oracle)
PARALLEL=${FUZZ_PARALLEL:-1}
BUILD=build-fuzz

CC=clang CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DTRACEFOLD_FUZZ=ON -DTRACEFOLD_BUILD_GUI=OFF -DTRACEFOLD_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" --parallel 2 --target $(printf 'fuzz_%s ' "${TARGETS[@]}")

# Generated recordings for the loader's seeds (deterministic by seed), written once.
mkdir -p "$BUILD/seeds/loader"
if [ ! -f "$BUILD/seeds/loader/generated-no-history.json" ]; then
    cmake --build "$BUILD" --parallel 2 --target tracefold-cli
    generate() { ASAN_OPTIONS=detect_leaks=0 "$BUILD/app/tracefold-cli" generate "$@"; }
    for seed in 1 2 3 4; do
        generate --calls 5 --seed "$seed" -o "$BUILD/seeds/loader/generated-$seed.json"
    done
    generate --calls 4 --seed 9 --result-bytes 120 --damage message --damage-call 2 \
        -o "$BUILD/seeds/loader/generated-damaged.json"
    generate --calls 6 --seed 5 --result-bytes 80 --no-iteration-history \
        -o "$BUILD/seeds/loader/generated-no-history.json"
fi

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

run_one() {
    local target=$1
    local seeds=(tests/fuzz/corpus/"$target")
    [ "$target" = loader ] && seeds+=(tests/data/samples "$BUILD/seeds/loader")
    [ "$target" = json_oracle ] &&
        seeds+=(tests/fuzz/corpus tests/data/samples tests/data/broken tests/data/conformance "$BUILD/seeds/loader")
    mkdir -p "$BUILD/corpus/$target" "$BUILD/artifacts/$target" "$BUILD/logs"
    "$BUILD/tests/fuzz/fuzz_$target" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=4096 -timeout=10 \
        -max_len=262144 -dict=tests/fuzz/tracefold.dict -print_final_stats=1 \
        -artifact_prefix="$BUILD/artifacts/$target/" "$BUILD/corpus/$target" "${seeds[@]}" \
        >"$BUILD/logs/$target.log" 2>&1
}

status=0
pids=()
names=()
for target in "${TARGETS[@]}"; do
    run_one "$target" &
    pids+=($!)
    names+=("$target")
    if ((${#pids[@]} >= PARALLEL)); then
        wait "${pids[0]}" || { echo "fuzz_${names[0]}: FAILED (see $BUILD/logs/${names[0]}.log)"; status=1; }
        pids=("${pids[@]:1}")
        names=("${names[@]:1}")
    fi
done
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { echo "fuzz_${names[$i]}: FAILED (see $BUILD/logs/${names[$i]}.log)"; status=1; }
done

for target in "${TARGETS[@]}"; do
    log="$BUILD/logs/$target.log"
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}')
    secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | awk '{print $5}')
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' <<<"$last" | awk '{print $2}')
    ft=$(grep -o 'ft: [0-9]*' <<<"$last" | awk '{print $2}')
    corp=$(grep -o 'corp: [0-9]*/[0-9a-zA-Z]*' <<<"$last" | awk '{print $2}')
    echo "fuzz_$target: ${runs:-?} executions in ${secs:-?} s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}," \
        "artifacts: $(ls "$BUILD/artifacts/$target" | wc -l)"
done
exit $status
