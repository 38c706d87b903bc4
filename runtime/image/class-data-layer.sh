#!/usr/bin/env bash
# Writes the container image's class data layer for linux/ARCH into OUT (runtime/pom.xml, profiles
# image-ARCH, before Jib builds the image):
#   opt/caldera/lib/image-java.args  the entrypoint's JVM arguments file: the class path (every jar
#                                    of lib/, in C order, as bin/caldera names them) and, when the
#                                    archives below were made, the options that map them;
#   opt/java/lib/server/classes.jsa  the Java runtime's own class data archive (java -Xshare:dump);
#   opt/caldera/lib/caldera.jsa      the archive the class data training makes, as bin/caldera has.
# The JVM takes an archive only from the same Java build with the same class path, every jar of the
# same size and modification time; and it cannot move (Java 17 names the jars by their absolute
# paths). So the archives are made by the image's own JVM, run as the image runs it: the image's
# files are staged in a directory, dated as Jib dates them (1970-01-01T00:00:01Z), and the JVM is
# started there under chroot. That needs root, unshare and chroot, and a machine of the image's
# architecture or QEMU's user-mode emulator for it (qemu-aarch64-static or qemu-x86_64-static,
# Debian's qemu-user-static; copied into the staged root and run explicitly, so no binfmt_misc
# registration is needed). Emulated, the JVM is slower but writes the same archives: they hold
# classes and metadata, not machine code. Without these (or with CALDERA_CDS_SKIP=true) the layer
# holds the arguments file with the class path only, the image starts without archives, and this
# script says why. The training runs from the distribution's lib/training/ (tools/cds-training),
# which the image holds at the same place, dated the same: the JVM takes the archive only then.
#
# Usage: class-data-layer.sh ARCH DIST ROOTFS OUT
#   DIST the distribution (runtime/target/caldera), ROOTFS runtime/image/rootfs/ARCH (os/, jre/).
set -euo pipefail

[ $# -eq 4 ] || { echo "usage: class-data-layer.sh ARCH DIST ROOTFS OUT" >&2; exit 2; }
arch=$1
dist=$(cd "$2" && pwd)
rootfs=$(cd "$3" && pwd)
out=$4

jvm_args=$out/opt/caldera/lib/image-java.args
rm -rf "$out"
mkdir -p "$(dirname "$jvm_args")"

classpath=$(cd "$dist" && LC_ALL=C && for jar in lib/*.jar; do printf '/opt/caldera/%s:' "$jar"; done)
printf -- '-cp %s\n' "${classpath%:}" >"$jvm_args"

without_archives() {
  echo "class-data-layer.sh: linux/$arch: the image starts without class data archives: $1"
  exit 0
}

case $(uname -m) in
  x86_64) machine=amd64 ;;
  aarch64) machine=arm64 ;;
  *) machine=$(uname -m) ;;
esac
[ "${CALDERA_CDS_SKIP:-false}" != true ] || without_archives "-Dcaldera.cds.skip=true"
[ -f "$dist/lib/training/caldera-cds-training.jar" ] || without_archives "no training jar in lib/training/"
# The emulator the image's JVM runs under, when this machine is of another architecture.
emulator=
if [ "$machine" != "$arch" ]; then
  case $arch in
    amd64) qemu=qemu-x86_64-static ;;
    arm64) qemu=qemu-aarch64-static ;;
    *) without_archives "no emulator known for $arch" ;;
  esac
  command -v "$qemu" >/dev/null ||
    without_archives "this machine is $machine, and the image's JVM needs $qemu to run here (Debian: qemu-user-static)"
  emulator=/$qemu
fi
[ "$(id -u)" = 0 ] || without_archives "making them runs the image's JVM under chroot, which needs root"
for tool in unshare chroot mount; do
  command -v "$tool" >/dev/null || without_archives "$tool not found"
done
unshare --mount --pid --fork true 2>/dev/null || without_archives "unshare --mount --pid does not work here"

stage=$out.stage
rm -rf "$stage"
mkdir -p "$stage/opt/caldera" "$stage/proc" "$stage/dev"
trap 'rm -rf "$stage"' EXIT
cp -a "$rootfs/os/." "$stage/"
cp -a "$rootfs/jre" "$stage/opt/java"
(cd "$dist" && tar -cf - --exclude=./lib/caldera.jsa --exclude='./log/*' .) | (cd "$stage/opt/caldera" && tar -xf -)
cp "$jvm_args" "$stage/opt/caldera/lib/"
find "$stage" -exec touch -h -d @1 {} +
[ -z "$emulator" ] || cp "$(command -v "$qemu")" "$stage$emulator"

# The image's JVM in its own root file system, as ImageTarballIT runs it: new mount and PID
# namespaces with /proc mounted (the JVM finds its libraries from /proc/self/exe) and the host's /dev;
# under the emulator when there is one (QEMU answers /proc/self/exe with the emulated program).
in_image() {
  unshare --mount --pid --fork --mount-proc="$stage/proc" \
    sh -c 'mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"' "$stage" ${emulator:+"$emulator"} "$@"
}

in_image /opt/java/bin/java -Xshare:dump -Xlog:cds=error >/dev/null
# The entrypoint's JVM options (runtime/pom.xml), as in a container; the training runs on the first
# JIT tier only, which is quicker (under the emulator most of all) and does not change the archive.
in_image /opt/java/bin/java -XX:ArchiveClassesAtExit=/opt/caldera/lib/caldera.jsa \
  -Xlog:cds=error -Xlog:cds+dynamic=error -XX:TieredStopAtLevel=1 -XX:MaxRAMPercentage=75.0 \
  -XX:+UseG1GC -Dcaldera.home=/opt/caldera "@/opt/caldera/lib/image-java.args" \
  -Xbootclasspath/a:/opt/caldera/lib/training/caldera-cds-training.jar \
  dev.caldera.cdstraining.Launcher /opt/caldera/lib/training/caldera-cds-training.jar

mkdir -p "$out/opt/java/lib/server"
cp "$stage/opt/java/lib/server/classes.jsa" "$out/opt/java/lib/server/classes.jsa"
cp "$stage/opt/caldera/lib/caldera.jsa" "$out/opt/caldera/lib/caldera.jsa"
# -Xshare:auto and the silenced cds log: a JVM that cannot use the archive (another memory mode,
# a jar replaced in a derived image) starts without it, as bin/caldera does.
printf -- '%s\n' -XX:SharedArchiveFile=/opt/caldera/lib/caldera.jsa -Xshare:auto -Xlog:cds=off \
  -Xlog:cds+dynamic=off >>"$jvm_args"
echo "class-data-layer.sh: linux/$arch: wrote the class data archives" \
  "($(du -sh "$out" | cut -f1)) into $out${emulator:+ (the JVM ran under $qemu)}"
