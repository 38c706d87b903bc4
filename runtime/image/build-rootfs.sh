#!/usr/bin/env bash
# Builds what the container image is made of besides the distribution, for linux/amd64 and
# linux/arm64 (or the architectures given as arguments), into runtime/image/rootfs/ARCH/:
#   os/   glibc, zlib, libgcc_s and libstdc++ from Debian 12 packages, /etc/passwd and /etc/group
#         with the user caldera (10001), and the writable /tmp and /opt/caldera/log;
#   jre/  a Java 17 runtime made by jlink from Debian's openjdk-17-jdk-headless of that
#         architecture (its jmods), with the modules Caldera uses.
# No base image is pulled (no container registry is needed): the packages come from the Debian
# mirrors this machine's apt uses, through a private apt state in rootfs/.apt (nothing is installed
# and the machine's dpkg architectures are left alone). Needs apt-get, dpkg-deb and a JDK 17 with
# jlink. The Maven build (runtime/pom.xml, profile `image`) turns on by itself once
# rootfs/amd64/jre/bin/java exists, and writes runtime/target/caldera-image-ARCH.tar.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$here/rootfs
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(amd64 arm64)

# The JDK modules: what jdeps finds in lib/, bundles/ and deploy/ (java.base, java.desktop,
# java.management, java.net.http, java.sql, jdk.httpserver), what libraries inside bundles that
# jdeps does not open use (fabric8 in the kube bundle: naming, TLS with elliptic curves, DNS), and
# what operating a JVM takes (JMX, JFR, jcmd's attach, java.instrument for agents).
modules=java.base,java.compiler,java.datatransfer,java.desktop,java.instrument,java.logging,java.management,java.management.rmi,java.naming,java.net.http,java.prefs,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.attach,jdk.crypto.ec,jdk.httpserver,jdk.jfr,jdk.management,jdk.management.jfr,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs
packages=(openjdk-17-jdk-headless libc6 zlib1g libgcc-s1 libstdc++6)

for tool in apt-get dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "build-rootfs.sh: $tool not found (a Debian or Ubuntu machine is needed)" >&2; exit 1; }
done
jlink=${JAVA_HOME:+$JAVA_HOME/bin/}jlink
command -v "$jlink" >/dev/null || { echo "build-rootfs.sh: jlink not found (set JAVA_HOME to a JDK 17)" >&2; exit 1; }
case $("$jlink" --version) in
  17|17.*) ;;
  *) echo "build-rootfs.sh: $jlink is $("$jlink" --version); the Debian jmods need the jlink of a JDK 17" >&2; exit 1 ;;
esac

for arch in "${archs[@]}"; do
  case $arch in
    amd64) triple=x86_64-linux-gnu; loader=lib64/ld-linux-x86-64.so.2 ;;
    arm64) triple=aarch64-linux-gnu; loader=lib/ld-linux-aarch64.so.1 ;;
    *) echo "build-rootfs.sh: unknown architecture $arch (amd64 or arm64)" >&2; exit 1 ;;
  esac
  echo "build-rootfs.sh: linux/$arch"
  apt_dir=$out/.apt/$arch
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
  apt=(-q -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
    -o "Dir::State::status=/dev/null" -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
    -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1")
  apt-get "${apt[@]}" update >/dev/null
  (cd "$apt_dir/debs" && rm -f ./*.deb && apt-get "${apt[@]}" download "${packages[@]}" >/dev/null)

  unpacked=$apt_dir/unpacked
  rm -rf "$unpacked" "$out/$arch"
  mkdir -p "$unpacked" "$out/$arch/os"
  for deb in "$apt_dir"/debs/*.deb; do
    dpkg-deb -x "$deb" "$unpacked"
  done

  os=$out/$arch/os
  # The shared libraries only (no gconv modules, docs or configuration); links become copies, so
  # the layer holds plain files whatever the links pointed at on this machine.
  for dir in lib/$triple usr/lib/$triple; do
    mkdir -p "$os/$dir"
    find "$unpacked/$dir" -maxdepth 1 \( -type f -o -type l \) -name '*.so*' -exec cp -L {} "$os/$dir/" \;
  done
  mkdir -p "$os/$(dirname "$loader")"
  cp -L "$unpacked/lib/$triple/$(basename "$loader")" "$os/$loader"
  mkdir -p "$os/etc" "$os/tmp" "$os/opt/caldera/log"
  printf 'root:x:0:0:root:/root:/sbin/nologin\ncaldera:x:10001:10001:Caldera:/opt/caldera:/sbin/nologin\n' >"$os/etc/passwd"
  printf 'root:x:0:\ncaldera:x:10001:\n' >"$os/etc/group"
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$os/etc/nsswitch.conf"

  jmods=$(echo "$unpacked"/usr/lib/jvm/java-17-openjdk-*/jmods)
  # --strip-java-debug-attributes rather than --strip-debug: the latter runs this machine's objcopy
  # on the native libraries, which cannot read another architecture's (Debian's are stripped).
  "$jlink" --module-path "$jmods" --add-modules "$modules" --output "$out/$arch/jre" \
    --strip-java-debug-attributes --no-man-pages --no-header-files
  for deb in "$apt_dir"/debs/*.deb; do
    dpkg-deb --show --showformat='${Package} ${Version}\n' "$deb"
  done >"$out/$arch/packages.txt"
  rm -rf "$unpacked"
  echo "build-rootfs.sh: $out/$arch ($(du -sh "$out/$arch" | cut -f1)): $(paste -sd',' "$out/$arch/packages.txt" | sed 's/,/, /g')"
done
