// Adds to package-lock.json the platform-specific optional packages (e.g. @rollup/rollup-win32-x64-msvc)
// that npm left out because the registry this project's machines use does not serve every platform's
// build. Without them `npm ci` refuses the lock ("Missing: ... from lock file"). The added entries
// carry os/cpu/libc, so npm skips them on other platforms exactly as it skips listed ones.
//
//   node scripts/complete-lock.mjs        (run after `npm install` changed the lock)

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const lockPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const pkgs = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'netbsd', 'openharmony', 'sunos', 'aix', 'win32'];
const CPU = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

/** Reads os, cpu and libc from a name such as `rollup-linux-arm-musleabihf` or `win32-x64-msvc`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return null;
  const tail = parts.slice(parts.indexOf(cpu) + 1).join('-');
  const libc = /^gnu/.test(tail) ? 'glibc' : /^musl/.test(tail) ? 'musl' : null;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (pkgs[key] || pkgs[`${path}/${key}`]) continue;
    const p = platformOf(dep);
    if (!p) continue;
    pkgs[key] = {
      version,
      cpu: [p.cpu],
      ...(meta.dev ? { dev: true } : {}),
      ...(p.libc ? { libc: [p.libc] } : {}),
      license: meta.license ?? 'MIT',
      optional: true,
      os: [p.os],
    };
    added++;
  }
}
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lock: added ${added} platform-specific optional package(s)`);
