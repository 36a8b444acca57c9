#!/bin/bash
# The installer for real, in a Debian bookworm root built with mmdebstrap (issue 23 §1):
#   install → check → install again (nothing may change) → upgrade from newer code (journal, data and
#   settings kept) → again → uninstall (data kept) → install back → uninstall --purge.
# Checks use systemd's offline tools (systemctl --root, systemd-analyze verify / security --offline),
# the files, users and permissions, and a headless start of the kiosk as the service user.
#
#   sudo tests/install/full_run.sh [WORKDIR]      (default /var/tmp/companion-install-test)
#
# Needs root, mmdebstrap (apt-get install mmdebstrap), systemd 252+, and network to the Debian mirror
# named in this machine's apt sources and to PyPI. Takes a few minutes (the base root is cached in
# WORKDIR/base.tar; delete it for a fresh one). Not part of the pytest run: the fast part is
# tests/install/test_installer.py. Last line: "full_run: PASS" or the check that failed.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${1:-/var/tmp/companion-install-test}
ROOT=$WORK/root
INSTALLER=/root/companion-src/install/companion_install.py
mkdir -p "$WORK"

fail() { echo "full_run: FAIL: $*"; exit 1; }
pass() { echo "  pass    $*"; }
# A clean environment, as a root shell on the Pi has (not this machine's PIP_*, proxies, ...).
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# --- the mirror: this machine's own apt sources (deb822 or one-line), bookworm suites only --------
mapfile -t SOURCES < <(python3 - <<'EOF'
import glob, re
lines = []
for path in ["/etc/apt/sources.list", *sorted(glob.glob("/etc/apt/sources.list.d/*.list"))]:
    try:
        for line in open(path, encoding="utf-8"):
            m = re.match(r"\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(bookworm\S*)\s+(.*)", line)
            if m:
                lines.append(f"deb {m.group(2)} {m.group(3)} main")
    except OSError:
        pass
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in open(path, encoding="utf-8").read().split("\n\n"):
        fields = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", stanza, re.M))
        if "deb" in fields.get("Types", "").split() and fields.get("Enabled", "yes") != "no":
            for uri in fields.get("URIs", "").split():
                for suite in fields.get("Suites", "").split():
                    if suite.startswith("bookworm"):
                        lines.append(f"deb {uri} {suite} main")
print("\n".join(dict.fromkeys(lines)))
EOF
)
[ ${#SOURCES[@]} -gt 0 ] || fail "no bookworm source in /etc/apt/sources.list*"
echo "mirror: ${SOURCES[*]}"

# --- a fresh Raspberry Pi OS Lite stand-in -------------------------------------------------------
started=$(date +%s)
if [ ! -s "$WORK/base.tar" ]; then
    mmdebstrap --quiet --variant=minbase --include=systemd-sysv,udev,python3,ca-certificates,sudo,iproute2 \
        bookworm "$WORK/base.tar" "${SOURCES[@]}"
fi
cleanup() {
    for m in boot/firmware proc sys dev/pts dev; do umount -l "$ROOT/$m" 2>/dev/null || true; done
}
trap cleanup EXIT
cleanup
rm -rf "$ROOT" && mkdir -p "$ROOT"
tar -xf "$WORK/base.tar" -C "$ROOT"
mount -t proc proc "$ROOT/proc"; mount --rbind /sys "$ROOT/sys"; mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"
# This machine's network, not the Pi's: its resolver, and the CAs it adds for its TLS proxy if any.
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    in_root update-ca-certificates > /dev/null 2>&1
fi
# The boot partition as Raspberry Pi OS bookworm ships it: FAT (no file modes, chmod refused), SPI
# commented out, a serial login console. Without mkfs.vfat (apt install dosfstools): a plain folder.
mkdir -p "$ROOT/boot/firmware"
rm -f "$WORK/boot.img"
if command -v mkfs.vfat > /dev/null && truncate -s 32M "$WORK/boot.img" && mkfs.vfat "$WORK/boot.img" > /dev/null 2>&1 \
    && mount -o loop,fmask=0022,dmask=0022 "$WORK/boot.img" "$ROOT/boot/firmware" 2> /dev/null; then
    echo "boot partition: a FAT image on /boot/firmware"
else
    echo "boot partition: a plain folder (no mkfs.vfat, or this kernel cannot mount FAT)"
fi
cat > "$ROOT/boot/firmware/config.txt" <<'EOF'
# For more options and information see http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
EOF
echo "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait" \
    > "$ROOT/boot/firmware/cmdline.txt"
echo "base root ready: $(( $(date +%s) - started )) s"

copy_source() {  # copy_source DEST: the repository's files (tracked and new, not ignored ones)
    rm -rf "$ROOT$1" && mkdir -p "$ROOT$1"
    git -C "$REPO" ls-files -z --cached --others --exclude-standard \
        | (cd "$REPO" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$ROOT$1"
}
snapshot() {  # everything the installer owns, with modes, owners and contents
    (cd "$ROOT" && find etc/companion etc/systemd etc/udev/rules.d etc/modules-load.d opt/companion var/lib/companion \
        boot/firmware etc/passwd etc/group -xdev \( -name __pycache__ -prune \) -o -print0 2>/dev/null \
        | sort -z | xargs -0 stat -c '%n %a %u:%g %s %Y') | sha256sum
}
run_installer() {  # run_installer LOG ARGS...: timed
    local log=$1; shift
    local t0; t0=$(date +%s.%N)
    in_root python3 "$@" > "$WORK/$log" 2>&1 || { cat "$WORK/$log"; fail "installer $* (log $WORK/$log)"; }
    echo "$log: $(python3 -c "print(round($(date +%s.%N) - $t0, 1))") s"
}

check_installed() {
    # systemd's own offline view of the result
    [ "$(systemctl --root="$ROOT" is-enabled companion.service)" = enabled ] || fail "companion.service not enabled"
    pass "systemctl --root: companion.service enabled"
    [ ! -e "$ROOT/etc/systemd/system/companion-cage.service" ] || fail "the cage unit without cage installed"
    in_root systemd-analyze verify /etc/systemd/system/companion.service \
        > "$WORK/verify.log" 2>&1 || { cat "$WORK/verify.log"; fail "systemd-analyze verify"; }
    ! grep -v "^$" "$WORK/verify.log" | grep -vi "ignoring\|Failed to open /dev/tty1\|No such file or directory" \
        | grep -q . || { cat "$WORK/verify.log"; fail "systemd-analyze verify warnings"; }
    pass "systemd-analyze verify companion.service: clean"
    score=$(systemd-analyze security --offline=yes --root="$ROOT" companion.service 2>/dev/null \
        | sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')
    if [ -z "$score" ] || python3 -c "import sys; sys.exit(float('$score') <= 2.0)"; then
        fail "companion.service: systemd-analyze security exposure '$score', want <= 2.0"
    fi
    echo "security_companion.service: $score exposure"
    # the user and its groups
    IFS=: read -r _ _ uid _ _ home shell < <(in_root getent passwd companion) || fail "no user companion"
    if [ "$uid" -ge 1000 ] || [ "$home" != /var/lib/companion ] || [ "$shell" != /usr/sbin/nologin ]; then
        fail "user companion: uid $uid home $home shell $shell"
    fi
    groups=" $(in_root id -nG companion) "
    for g in companion gpio spi dialout video render input; do
        [[ "$groups" == *" $g "* ]] || fail "companion is not in group $g ($groups)"
    done
    pass "system user companion (uid $uid, nologin) in:$groups"
    # files and permissions
    expect() {  # expect PATH MODE OWNER
        local got; got=$(in_root stat -c '%a %U:%G' "$1")  # names from the root's own user database
        [ "$got" = "$2 $3" ] || fail "$1 is $got, want $2 $3"
    }
    expect /etc/companion 750 root:companion
    expect /etc/companion/kiosk.env 640 root:companion
    expect /etc/companion/hardware.toml 640 root:companion
    expect /var/lib/companion 700 companion:companion
    expect /opt/companion 755 root:root
    expect /opt/companion/venv/bin/companion 755 root:root
    expect /etc/systemd/system/companion.service 644 root:root
    expect /etc/modules-load.d/companion.conf 644 root:root
    expect /etc/systemd/logind.conf.d/companion-kiosk.conf 644 root:root
    for rule in "$REPO"/systemd/*.rules; do
        [ -e "$rule" ] || continue
        expect "/etc/udev/rules.d/$(basename "$rule")" 644 root:root
        cmp -s "$rule" "$ROOT/etc/udev/rules.d/$(basename "$rule")" || fail "udev rule $(basename "$rule") differs"
        pass "udev rule $(basename "$rule") installed"
    done
    in_root runuser -u companion -- test -w /opt/companion/venv/lib && fail "the service user can modify its code"
    in_root runuser -u companion -- test -r /etc/companion/kiosk.env || fail "the service user cannot read kiosk.env"
    pass "files, modes and owners; the code is read-only to the service user"
    grep -qx "COMPANION_ADMIN_PIN=[0-9]\{6\}" "$ROOT/etc/companion/kiosk.env" || fail "no PIN in kiosk.env"
    pass "kiosk.env has a 6-digit COMPANION_ADMIN_PIN"
    # boot settings: SPI and the UART in [all], no login console on the UART, kiosk console
    python3 - "$ROOT/boot/firmware/config.txt" <<'EOF' || fail "config.txt"
import sys
section, active = "all", set()
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("["):
        section = line[1:-1]
    elif section == "all" and line in ("dtparam=spi=on", "enable_uart=1"):
        active.add(line)
sys.exit(active != {"dtparam=spi=on", "enable_uart=1"})
EOF
    ! grep -q "console=serial0" "$ROOT/boot/firmware/cmdline.txt" || fail "serial console still in cmdline.txt"
    grep -q "consoleblank=0" "$ROOT/boot/firmware/cmdline.txt" || fail "consoleblank=0 missing"
    [ "$(wc -l < "$ROOT/boot/firmware/cmdline.txt")" = 1 ] || fail "cmdline.txt is not one line"
    pass "config.txt: dtparam=spi=on, enable_uart=1 in [all]; cmdline.txt: no serial console, consoleblank=0"
}

start_headless() {  # the kiosk as the unit runs it (user, environment file, state directory), no screen
    rm -f "$WORK/kiosk.log"
    in_root runuser -u companion -- env -i PATH=/usr/bin:/bin HOME=/var/lib/companion \
        STATE_DIRECTORY=/var/lib/companion COMPANION_HARDWARE=emulated SDL_VIDEODRIVER=dummy \
        sh -c 'set -a; . /etc/companion/kiosk.env; set +a; cd /var/lib/companion;
               exec timeout -s TERM 12 /opt/companion/venv/bin/companion kiosk --headless' \
        > "$WORK/kiosk.log" 2>&1 && status=0 || status=$?
    # timeout's 124: it was still running after 12 s, then ended by SIGTERM as systemd stops it.
    [ "$status" = 124 ] || [ "$status" = 0 ] || { tail -30 "$WORK/kiosk.log"; fail "kiosk exited $status"; }
    ! grep -q Traceback "$WORK/kiosk.log" || { tail -30 "$WORK/kiosk.log"; fail "kiosk traceback"; }
    [ -s "$ROOT/var/lib/companion/journal.sqlite" ] || { tail -30 "$WORK/kiosk.log"; fail "no journal written"; }
    [ "$(in_root stat -c %U /var/lib/companion/journal.sqlite)" = companion ] || fail "journal owner"
    pass "companion kiosk --headless runs as the service user for 12 s, journal in /var/lib/companion"
}

echo "== 1. install on the fresh root"
copy_source /root/companion-src
run_installer install_first_run "$INSTALLER"
cat "$WORK/install_first_run"
pin=$(sed -n 's/.*The admin PIN of this box: \([0-9]*\).*/\1/p' "$WORK/install_first_run")
[ -n "$pin" ] || fail "no PIN printed"
grep -qx "COMPANION_ADMIN_PIN=$pin" "$ROOT/etc/companion/kiosk.env" || fail "printed PIN $pin is not in kiosk.env"
pass "the printed PIN is the one in kiosk.env"
check_installed
start_headless
in_root /opt/companion/venv/bin/companion --help > /dev/null || fail "companion --help"
if in_root /opt/companion/venv/bin/companion doctor --help > /dev/null 2>&1; then
    in_root runuser -u companion -- env STATE_DIRECTORY=/var/lib/companion \
        sh -c 'set -a; . /etc/companion/kiosk.env; set +a; /opt/companion/venv/bin/companion doctor' \
        > "$WORK/doctor.log" 2>&1 && echo "doctor: exit 0" || echo "doctor: exit $? (expected: no Pi here)"
    cat "$WORK/doctor.log"
fi

echo "== 2. the same again: nothing may change"
before=$(snapshot)
run_installer install_second_run "$INSTALLER"
grep -q "nothing changed" "$WORK/install_second_run" || { cat "$WORK/install_second_run"; fail "second run changed"; }
! grep -q "admin PIN" "$WORK/install_second_run" || fail "second run printed a PIN again"
[ "$before" = "$(snapshot)" ] || fail "second run modified files"
pass "second run: 'nothing changed', no file touched, no PIN printed"

echo "== 3. upgrade from newer code, with a journal, a data set and changed settings"
mkdir -p "$ROOT/var/lib/companion/datasets/test-box"
echo "kept" > "$ROOT/var/lib/companion/datasets/test-box/marker"
in_root chown -R companion:companion /var/lib/companion/datasets
echo "COMPANION_LANGUAGE=de" >> "$ROOT/etc/companion/kiosk.env"
journal_sum=$(sha256sum < "$ROOT/var/lib/companion/journal.sqlite")
env_sum=$(sha256sum < "$ROOT/etc/companion/kiosk.env")
hw_sum=$(sha256sum < "$ROOT/etc/companion/hardware.toml")
copy_source /root/companion-src
echo "UPGRADE_MARK = 'full_run'" >> "$ROOT/root/companion-src/companion/__init__.py"
run_installer install_upgrade "$INSTALLER"
cat "$WORK/install_upgrade"
grep -q "upgraded from" "$WORK/install_upgrade" || fail "upgrade not reported"
in_root /opt/companion/venv/bin/python -c "import companion; assert companion.UPGRADE_MARK == 'full_run'" \
    || fail "the venv does not run the new code"
[ "$journal_sum" = "$(sha256sum < "$ROOT/var/lib/companion/journal.sqlite")" ] || fail "journal changed"
[ "$env_sum" = "$(sha256sum < "$ROOT/etc/companion/kiosk.env")" ] || fail "kiosk.env changed"
[ "$hw_sum" = "$(sha256sum < "$ROOT/etc/companion/hardware.toml")" ] || fail "hardware.toml changed"
[ "$(cat "$ROOT/var/lib/companion/datasets/test-box/marker")" = kept ] || fail "data set lost"
pass "upgrade: new code in the venv; journal, data set, kiosk.env, hardware.toml byte-identical"
check_installed
start_headless
before=$(snapshot)
run_installer install_after_upgrade "$INSTALLER"
if ! grep -q "nothing changed" "$WORK/install_after_upgrade" || [ "$before" != "$(snapshot)" ]; then
    cat "$WORK/install_after_upgrade"; fail "run after the upgrade changed something"
fi
pass "run after the upgrade: nothing changed"

echo "== 4. uninstall (keeps the data), install back, uninstall --purge"
run_installer uninstall "$INSTALLER" --uninstall
cat "$WORK/uninstall"
for gone in /opt/companion /etc/systemd/system/companion.service /etc/modules-load.d/companion.conf \
    /etc/systemd/logind.conf.d/companion-kiosk.conf; do
    [ ! -e "$ROOT$gone" ] || fail "$gone left after --uninstall"
done
[ -z "$(find "$ROOT/etc/systemd/system" -name 'companion*' 2>/dev/null)" ] || fail "unit links left"
[ -z "$(find "$ROOT/etc/udev/rules.d" -name '*companion*' 2>/dev/null)" ] || fail "udev rules left"
[ "$journal_sum" = "$(sha256sum < "$ROOT/var/lib/companion/journal.sqlite")" ] || fail "journal lost"
[ "$env_sum" = "$(sha256sum < "$ROOT/etc/companion/kiosk.env")" ] || fail "settings lost"
in_root getent passwd companion > /dev/null || fail "user removed without --purge"
pass "uninstall: program, units, rules gone; journal, settings, data set and user kept"
# This time from outside, as when preparing an SD card image: --root runs the commands in the root.
t0=$(date +%s)
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 python3 "$REPO/install/companion_install.py" --root "$ROOT" \
    > "$WORK/install_back" 2>&1 || { cat "$WORK/install_back"; fail "install --root"; }
echo "install_back_with_root_option: $(( $(date +%s) - t0 )) s"
[ "$env_sum" = "$(sha256sum < "$ROOT/etc/companion/kiosk.env")" ] || fail "reinstall replaced the settings"
! grep -q "admin PIN" "$WORK/install_back" || fail "reinstall made a new PIN"
check_installed
pass "install after uninstall (from outside, --root): the kept settings and PIN are used"
run_installer purge "$INSTALLER" --uninstall --purge
for gone in /opt/companion /etc/companion /var/lib/companion; do [ ! -e "$ROOT$gone" ] || fail "$gone after purge"; done
! in_root getent passwd companion > /dev/null || fail "user left after --purge"
pass "uninstall --purge: settings, state and user gone"
echo "full_run_total: $(( $(date +%s) - started )) s"
echo "full_run: PASS"
