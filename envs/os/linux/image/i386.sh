#!/bin/bash
# Lets this machine run i386 programs, which debootstrap's second stage needs (it runs the
# image's own binaries). Some kernels refuse 32-bit ELF files ("Exec format error") although
# they are x86-64, e.g. the Firecracker VMs CI runs in; there qemu-user-static runs them,
# registered with binfmt_misc. Does nothing where i386 programs already run. Needs root and apt.
set -euo pipefail
command -v arch-test >/dev/null || apt-get install -y -qq arch-test
if arch-test i386 >/dev/null 2>&1; then exit 0; fi
echo "os-image: this kernel does not run i386 programs; running them through qemu-user-static (binfmt_misc)"
[ -x /usr/bin/qemu-i386-static ] || apt-get install -y -qq qemu-user-static
binfmt=/proc/sys/fs/binfmt_misc
[ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt"
# qemu's own i386 entry (its scripts/qemu-binfmt-conf.sh): ELF32, little-endian, e_machine 3; F = the
# interpreter is opened now, so it works inside debootstrap's chroot too.
if [ ! -e "$binfmt/qemu-i386" ]; then
  printf '%s' ':qemu-i386:M::\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00:\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-i386-static:F' > "$binfmt/register"
fi
arch-test i386 >/dev/null || { echo "os-image: i386 programs still do not run here" >&2; exit 1; }
