#!/usr/bin/env bash
# Packaging test: builds the .deb, .rpm and .tar.gz from the build tree with CPack, unpacks the .deb into a fresh
# root and checks what a user gets: every installed binary's libraries resolve, the installed tools run (the CLI on
# the installed sample, the GUI's offscreen screenshot), and the desktop file, metainfo, MIME type, icons and man
# pages are there and valid.
#   check_packages.sh --build-dir DIR --out-dir DIR --version X.Y.Z --app-id ID --mime TYPE [--cpack CPACK]

# pass and fail only print and count, so `test && pass || fail` is an if/else here.
# shellcheck disable=SC2015
set -euo pipefail

cpack=cpack
while (($#)); do
    case "$1" in
    --build-dir) build_dir=$2 ;;
    --out-dir) out_dir=$2 ;;
    --version) version=$2 ;;
    --app-id) app_id=$2 ;;
    --mime) mime=$2 ;;
    --cpack) cpack=$2 ;;
    *) echo "check_packages.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift 2
done
: "${build_dir:?--build-dir}" "${out_dir:?--out-dir}" "${version:?--version}" "${app_id:?--app-id}" "${mime:?--mime}"

failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
need() { command -v "$1" >/dev/null || { echo "FAIL: $1 is not installed (./dev.sh test installs it)"; exit 1; }; }
for tool in dpkg-deb dpkg-shlibdeps rpmbuild rpm desktop-file-validate appstreamcli update-mime-database file ldd; do
    need "$tool"
done

# The packages go to a directory of their own, never build/'s, so this test and `--target package` don't meet.
rm -rf "$out_dir"
mkdir -p "$out_dir"
work=$(mktemp -d "${TMPDIR:-/tmp}/tracefold-packaging.XXXXXX")
trap 'rm -rf "$work"' EXIT

start=$SECONDS
if ! "$cpack" --config "$build_dir/CPackConfig.cmake" -G "DEB;RPM;TGZ" -B "$out_dir" >"$out_dir/cpack.log" 2>&1; then
    cat "$out_dir/cpack.log"
    fail "cpack -G DEB;RPM;TGZ"
    exit 1
fi
pass "cpack built the packages in $((SECONDS - start)) s"

# --- the three packages, their names carrying the version ---
deb=$(find "$out_dir" -maxdepth 1 -name "tracefold_${version}-*.deb" | head -n 1)
rpm=$(find "$out_dir" -maxdepth 1 -name "tracefold-${version}-*.rpm" | head -n 1)
tgz=$(find "$out_dir" -maxdepth 1 -name "tracefold-${version}-*.tar.gz" | head -n 1)
for pkg in "$deb" "$rpm" "$tgz"; do
    [ -n "$pkg" ] && [ -s "$pkg" ] || { ls -l "$out_dir"; fail "a package named with $version is missing"; exit 1; }
    pass "$(basename "$pkg") ($(stat -c %s "$pkg") bytes)"
done

[ "$(dpkg-deb -f "$deb" Version)" = "${version}-1" ] && pass "deb Version ${version}-1" ||
    fail "deb Version is $(dpkg-deb -f "$deb" Version)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "deb Depends: $depends"
# Computed by dpkg-shlibdeps: the Qt and C++ runtime libraries, with versions.
for lib in libqt6widgets6 libqt6core6 libstdc++6 libc6 qt6-qpa-plugins; do
    grep -q "\\b$lib\\b" <<<"$depends" && pass "deb depends on $lib" || fail "deb does not depend on $lib"
done
# Listings go to files first: `grep -q` on a pipe would stop reading early and fail the writer under pipefail.
[ "$(rpm -qp --queryformat '%{VERSION}' "$rpm" 2>/dev/null)" = "$version" ] && pass "rpm VERSION $version" ||
    fail "rpm VERSION is not $version"
rpm -qpl "$rpm" >"$work/rpm-files.txt" 2>/dev/null || true
rpm -qpR "$rpm" >"$work/rpm-requires.txt" 2>/dev/null || true
tar -tzf "$tgz" >"$work/tgz-files.txt"
for f in /usr/bin/tracefold /usr/bin/tracefold-cli "/usr/share/applications/$app_id.desktop"; do
    grep -qx "$f" "$work/rpm-files.txt" && pass "rpm holds $f" || fail "rpm lacks $f"
done
grep -q 'libQt6Widgets\.so\.6' "$work/rpm-requires.txt" && pass "rpm requires libQt6Widgets.so.6" ||
    fail "rpm autoreq missed libQt6Widgets.so.6"
for f in bin/tracefold bin/tracefold-cli "share/applications/$app_id.desktop"; do
    grep -qx "[^/]*/$f" "$work/tgz-files.txt" && pass "tar.gz holds $f" || fail "tar.gz lacks $f (top/$f)"
done

# --- unpack the .deb into a fresh root ---
root=$work/root
dpkg-deb -x "$deb" "$root"
share=$root/usr/share
for f in usr/bin/tracefold usr/bin/tracefold-cli \
    "usr/share/applications/$app_id.desktop" "usr/share/metainfo/$app_id.metainfo.xml" \
    "usr/share/mime/packages/$app_id.xml" "usr/share/icons/hicolor/scalable/apps/$app_id.svg" \
    usr/share/tracefold/samples/tracefold-sample.json; do
    [ -s "$root/$f" ] && pass "installed /$f" || fail "not installed: /$f"
done

# Every installed ELF file: no unresolved library, no build-tree RPATH.
while IFS= read -r -d '' bin; do
    file -b "$bin" | grep -q '^ELF' || continue
    missing=$(ldd "$bin" 2>&1 | grep 'not found' || true)
    [ -z "$missing" ] && pass "ldd ${bin#"$root"}: every library resolves" ||
        fail "ldd ${bin#"$root"}: $missing"
    rpath=$(readelf -d "$bin" 2>/dev/null | grep -E '\((RUN)?PATH\)' || true)
    [ -z "$rpath" ] || fail "${bin#"$root"} carries a search path: $rpath"
done < <(find "$root" -type f -print0)

# --- the installed binaries run ---
cli=$root/usr/bin/tracefold-cli
gui=$root/usr/bin/tracefold
sample=$share/tracefold/samples/tracefold-sample.json
got=$("$cli" --version 2>&1 || true)
[ "$got" = "tracefold-cli $version" ] && pass "tracefold-cli --version: $got" || fail "tracefold-cli --version: '$got'"
if "$cli" inspect "$sample" >"$work/inspect.txt" 2>"$work/inspect.err"; then
    pass "tracefold-cli inspect on the installed sample ($(wc -l <"$work/inspect.txt") lines)"
else
    fail "tracefold-cli inspect on the installed sample exited $?: $(head -c 500 "$work/inspect.err")"
fi
"$cli" inspect "$sample" --json >"$work/inspect.json" 2>&1 || true
grep -q "\"tracefold\": *\"$version\"" "$work/inspect.json" && pass "inspect --json carries $version" ||
    fail "inspect --json does not carry $version"

# The PDF helper is found beside the installed CLI, as a user's `report --pdf` finds it.
if [ -x "$root/usr/bin/tracefold-report-pdf" ]; then
    if env -u TRACEFOLD_REPORT_PDF "$cli" report "$sample" --no-notes -o "$work/report.html" --pdf "$work/report.pdf" \
        >"$work/report.log" 2>&1 && file -b "$work/report.pdf" | grep -q '^PDF document'; then
        pass "tracefold-cli report --pdf with the installed helper ($(stat -c %s "$work/report.pdf") bytes)"
    else
        fail "tracefold-cli report --pdf: $(tail -c 800 "$work/report.log")"
    fi
fi

export QT_QPA_PLATFORM=offscreen
# Qt wants a private runtime directory; CI as root has none.
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 0700 "$XDG_RUNTIME_DIR"
got=$(timeout 60 "$gui" --version 2>&1 || true)
grep -q "$version" <<<"$got" && pass "tracefold --version: $got" || fail "tracefold --version: '$got'"
for args in "" "$sample"; do
    shot=$work/shot-$RANDOM.png
    # shellcheck disable=SC2086 # $args is empty or one path without blanks
    if timeout 300 "$gui" --screenshot "$shot" $args >"$work/gui.log" 2>&1; then
        info=$(file -b "$shot" 2>/dev/null || true)
        grep -q '^PNG image data, 1400 x 900' <<<"$info" && [ -s "$shot" ] &&
            pass "tracefold --screenshot ${args:+(installed sample) }wrote $(stat -c %s "$shot") bytes: $info" ||
            fail "tracefold --screenshot ${args:+(installed sample) }wrote: ${info:-nothing}"
    else
        fail "tracefold --screenshot ${args:+(installed sample) }exited $?: $(tail -c 800 "$work/gui.log")"
    fi
done

# --- desktop integration files ---
desktop=$share/applications/$app_id.desktop
if out=$(desktop-file-validate "$desktop" 2>&1) && [ -z "$out" ]; then
    pass "desktop-file-validate $app_id.desktop"
else
    fail "desktop-file-validate: $out"
fi
grep -qx "MimeType=$mime;application/json;" "$desktop" && pass "desktop file handles $mime and application/json" ||
    fail "desktop file MimeType= does not name $mime"
exec_program=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
[ -x "$root/usr/bin/$exec_program" ] && pass "desktop file Exec=$exec_program is installed" ||
    fail "desktop file Exec=$exec_program is not in /usr/bin"
grep -qx "Icon=$app_id" "$desktop" && pass "desktop file Icon=$app_id" || fail "desktop file Icon= is not $app_id"

metainfo=$share/metainfo/$app_id.metainfo.xml
if out=$(appstreamcli validate --no-net --no-color "$metainfo" 2>&1); then
    pass "appstreamcli validate --no-net $app_id.metainfo.xml: $(tail -n 1 <<<"$out")"
else
    fail "appstreamcli validate: $out"
fi
# The installed tree as a whole: the metainfo, its launchable desktop file and the icon agree.
if out=$(appstreamcli validate-tree --no-net --no-color "$root" 2>&1); then
    pass "appstreamcli validate-tree --no-net: $(tail -n 1 <<<"$out")"
else
    fail "appstreamcli validate-tree: $out"
fi
grep -q "<release version=\"$version\"" "$metainfo" && pass "metainfo release $version" ||
    fail "metainfo has no release $version"

mimexml=$share/mime/packages/$app_id.xml
if command -v xmllint >/dev/null; then
    xmllint --noout "$mimexml" && pass "xmllint $app_id.xml" || fail "xmllint $app_id.xml"
fi
mkdir -p "$work/mime/packages"
cp "$mimexml" "$work/mime/packages/"
# XDG_DATA_HOME names the temporary tree, so update-mime-database has no "not in the search path" note to print.
if out=$(XDG_DATA_HOME=$work update-mime-database "$work/mime" 2>&1) && [ -z "$out" ]; then
    pass "update-mime-database accepts $app_id.xml"
else
    fail "update-mime-database: $out"
fi
grep -qx "$mime" "$work/mime/types" 2>/dev/null && pass "MIME database knows $mime" || fail "$mime not in the database"
for glob in '*.afrec.json' '*.recording.json'; do
    grep -qF ":$mime:$glob" "$work/mime/globs2" 2>/dev/null && pass "glob $glob -> $mime" || fail "glob $glob missing"
done
grep -q ':\*\.json$' "$work/mime/globs2" && fail "the MIME type claims every *.json" || pass "no claim on every *.json"

for size in 16 32 48 64 128 256; do
    png=$share/icons/hicolor/${size}x${size}/apps/$app_id.png
    info=$(file -b "$png" 2>/dev/null || true)
    grep -q "^PNG image data, $size x $size" <<<"$info" && pass "icon ${size}x${size}" ||
        fail "icon ${size}x${size}: ${info:-missing}"
done

# A man page for every installed program.
for program in "$root"/usr/bin/*; do
    page=$(basename "$program")
    man=$share/man/man1/$page.1.gz
    zcat "$man" 2>/dev/null | grep -q "^\\.TH .*\"Tracefold $version\"" && pass "man page $page(1) for $version" ||
        fail "man page $page(1) lacks version $version"
    if command -v groff >/dev/null; then
        # -ww: every warning; groff reports roff mistakes on stderr.
        warnings=$(zcat "$man" | groff -man -Tutf8 -ww -z 2>&1 || true)
        [ -z "$warnings" ] && pass "groff renders $page(1) cleanly" || fail "groff $page(1): $warnings"
    fi
done

echo "packaging test: $failures failure(s), $((SECONDS - start)) s"
((failures == 0))
