#!/usr/bin/env bash
# Tracefold developer entry point; the README's two commands.
#   ./dev.sh run [FILE]   install what is missing, build into build/, open the app (the bundled sample without FILE)
#   ./dev.sh test         install what is missing, build into build/ with warnings as errors, run every test; then
#                         build into build-asan/ with clang, ASan+UBSan and run every test again
#   ./dev.sh test-asan    the sanitizer pass alone
set -euo pipefail
cd "$(dirname "$0")"

# Debian 12 packages the build and the tests need.
PACKAGES=(build-essential cmake ninja-build pkg-config qt6-base-dev qt6-base-dev-tools libqt6svg6 qt6-svg-dev libgl-dev
          fonts-dejavu-core xauth xvfb lld libmimalloc-dev)
# Only the tests need these: packaging checks, the report's browser test and PDF text, fuzzing and sanitizers, and
# nlohmann_json (the second opinion on the core's JSON reader: tst_jsonoracle, fuzz_json_oracle).
TEST_PACKAGES=(desktop-file-utils appstream rpm file dpkg-dev chromium clang libclang-rt-14-dev poppler-utils
               nlohmann-json3-dev)

install_missing() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "dev.sh: installing ${missing[*]}" >&2
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

configure_and_build() {
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
    cmake --build build --parallel "$(nproc)"
}

# The sanitizer pass of `./dev.sh test` (also `./dev.sh test-asan` alone): a Debug build in build-asan with
# -fsanitize=address,undefined on every target (TRACEFOLD_SANITIZE), leaks detected at exit, any UB fatal.
# tests/lsan.supp holds the few leak suppressions, for Qt and fontconfig internals only. Excluded from this pass:
# packaging_deb, which tests/packaging does not even register in a sanitizer build (a package of an ASan build is not
# what ships); SANITIZER_EXCLUDE (a ctest -E regex) is for anything else too slow under ASan: the hostile-file suites
# again with the read-ahead (77 s under ASan, 2026-12-07; tst_listreadahead's deep and damaged files take that path
# there, and the suites themselves run under ASan once).
SANITIZER_EXCLUDE='^(tst_loaderlimits_readahead|tst_hostile_readahead)$'
sanitized_tests() {
    # -O1 -g1: ASan's own advice for a usable speed (on CI the sanitized tests took 570 s at -O0, 334 s at -O1), and
    # line tables are all its reports need. Built with clang (installed for the fuzzers), which compiles it faster
    # than GCC (measured alone on 2026-12-06: ui/panes/findingspane.cpp 9.2 s against 13.8 s,
    # core/findings/findingspiece.cpp 2.8 s against 7.0 s); the release build being GCC's, both compilers' warnings
    # are errors.
    cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DTRACEFOLD_SANITIZE=ON -DTRACEFOLD_WERROR=ON \
        -DTRACEFOLD_BUILD_BENCHES=OFF
    cmake --build build-asan --parallel "$(nproc)"
    QT_QPA_PLATFORM=offscreen \
        ASAN_OPTIONS=detect_leaks=1 \
        LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0" \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -E "$SANITIZER_EXCLUDE"
}

case "${1:-}" in
run)
    shift
    install_missing "${PACKAGES[@]}"
    configure_and_build
    exec ./build/app/tracefold "$@"
    ;;
test)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    # -g1 (line tables: what perf and a backtrace read) compiles in two thirds of -g's time (measured alone on
    # 2026-12-06: ui/panes/findingspane.cpp 7.6 s against 11.0 s, core/recording/callview.cpp 4.9 s against 7.3 s).
    configure_and_build -DTRACEFOLD_WERROR=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
    export QT_QPA_PLATFORM=offscreen
    ctest --test-dir build --output-on-failure --parallel "$(nproc)"
    # Then the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer; its ctest summary is the last line.
    sanitized_tests
    ;;
test-asan)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    sanitized_tests
    ;;
*)
    echo "usage: ./dev.sh run [FILE] | ./dev.sh test | ./dev.sh test-asan" >&2
    exit 2
    ;;
esac
